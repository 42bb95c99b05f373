package send

// TakePendingSQL is takePendingSQL, for the plan test.
var TakePendingSQL = takePendingSQL
