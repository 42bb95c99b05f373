package send

// LookupSQL is lookupSQL, for the plan test.
var LookupSQL = lookupSQL
