package bank

import "fmt"

// SourceSQL is the query that reads a target's numbers for a send, in the shape
// the send engine pages: $1 is the last id read, $2 the page size, then args. A
// random draw orders the matches by a hash of the id seeded by Seed, so every page
// and every walk (the price, then the expansion) draws the same numbers; ids are
// unique, so a draw never repeats a number.
func (t *Target) SourceSQL() (string, []any) {
	q := query{args: make([]any, 2)}
	t.filter(&q, false)
	if t.Count <= 0 {
		return `SELECT id, id::text AS mobile, NULL::text, NULL::text[] FROM bank_numbers WHERE ` + q.where() +
			` AND id > $1 ORDER BY id LIMIT $2`, q.args[2:]
	}
	seed, count := q.arg(t.Seed), q.arg(t.Count)
	return fmt.Sprintf(`WITH pick AS (SELECT b.id FROM bank_numbers b WHERE %s ORDER BY hashint8extended(b.id, %s), b.id LIMIT %s)
		SELECT id, id::text AS mobile, NULL::text, NULL::text[] FROM pick WHERE id > $1 ORDER BY id LIMIT $2`, q.where(), seed, count),
		q.args[2:]
}
