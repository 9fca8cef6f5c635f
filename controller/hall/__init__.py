"""The tournament hall: players, seating plans and the results a ranking body takes."""
