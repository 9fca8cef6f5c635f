"""Tools around the controller: table/reader simulator, tag enrolment, referee replay and
reports, benchmarks."""
