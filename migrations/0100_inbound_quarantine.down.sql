DROP TABLE inbound_quarantine;
