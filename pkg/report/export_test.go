package report

// SetSheetRows lowers the rows per sheet of the export for a test; the returned
// function restores it.
func SetSheetRows(n int) (restore func()) {
	old := sheetRows
	sheetRows = n
	return func() { sheetRows = old }
}
