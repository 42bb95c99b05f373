package report

import "time"

// ListWhereForTest is the list's WHERE clause and args for f in accountID's last 30
// days (tests read its plan).
func ListWhereForTest(f Filter, accountID int64) (string, []any) {
	from, to := f.bounds(time.Now())
	return listWhere(f, []any{accountID, from, to, f.Status, f.typeFilter(), f.Line})
}
