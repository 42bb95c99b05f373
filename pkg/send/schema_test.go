package send_test

import "testing"

// Recipients have no foreign key to sends (migration 0200): a trigger removes a
// deleted send's recipients, whether the send is deleted itself or with its
// account, and leaves every other send's alone.
func TestDeletedSendTakesItsRecipients(t *testing.T) {
	w := newSweepWorld(t)
	a, _ := w.sendWith("sending", 3, 5)
	b, _ := w.sendWith("sending", 2, 5)
	var other int64
	w.must(w.d.Pool.QueryRow(t.Context(), `INSERT INTO accounts (name) VALUES ('kept') RETURNING id`).Scan(&other))
	var c int64
	w.must(w.d.Pool.QueryRow(t.Context(), `INSERT INTO sends (account_id, type, sender, text, status, expanded_at)
		VALUES ($1, 'quick', '3000', 'x', 'sending', now()) RETURNING id`, other).Scan(&c))
	w.exec(`INSERT INTO recipients (send_id, batch, mobile, operator, parts, cost, status)
		VALUES ($1, 1, '989120000001', 'mci', 1, 230, 5)`, c)

	w.exec(`DELETE FROM sends WHERE id = $1`, a)
	if n := w.count(`SELECT count(*) FROM recipients WHERE send_id = $1`, a); n != 0 {
		t.Fatalf("deleted send keeps %d recipients", n)
	}
	if n := w.count(`SELECT count(*) FROM recipients WHERE send_id = $1`, b); n != 2 {
		t.Fatalf("the other send has %d recipients, want 2", n)
	}
	w.exec(`DELETE FROM accounts WHERE id = $1`, w.acct)
	if n := w.count(`SELECT count(*) FROM recipients WHERE send_id = ANY($1)`, []int64{a, b}); n != 0 {
		t.Fatalf("deleted account's sends keep %d recipients", n)
	}
	if n := w.count(`SELECT count(*) FROM recipients WHERE send_id = $1`, c); n != 1 {
		t.Fatalf("another account's send has %d recipients, want 1", n)
	}
}
