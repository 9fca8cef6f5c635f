"""The tournament hub: hall standings from every table's MQTT feed (`mjtable hub`)."""
