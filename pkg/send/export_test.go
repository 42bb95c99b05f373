package send

// LookupSQL is lookupSQL, for the plan test.
var LookupSQL = lookupSQL

// SetPendingBatch sets how many pending receipts a retry pass looks at, for the
// test's run.
func SetPendingBatch(t interface{ Cleanup(func()) }, n int) {
	old := pendingBatch
	pendingBatch = n
	t.Cleanup(func() { pendingBatch = old })
}
