package report

import "github.com/chapar/chapar/pkg/send"

// The SQL of the reports. Every tenant query names the account; the recipients
// queries run only after the send was found in the caller's account.
//
// One-time-code sends (type verification) are the platform's, not the customer's:
// their text is a login or password-reset code, so no report shows them, not even
// to the account they were sent for (a colleague could otherwise read the owner's
// reset code).
const visible = ` AND s.type <> '` + send.TypeVerification + `'`

// sendCols and sendRest are the columns scanStats reads, around the text expression
// that differs per query: the 70-character preview, the whole text or none.
const (
	sendCols = `s.id, s.account_id, s.status, s.sender, s.type, `
	sendRest = `,
       s.requested, s.recipients, s.submitted, s.delivered, s.undelivered, s.blacklisted, s.rejected, s.unpaid, s.partial, s.stopped,
       s.operator_blocked, s.parts, s.total_parts, s.quote, s.cost, s.refunded, s.expanded_at IS NOT NULL,
       s.created_at, s.send_at, s.finished_at, s.stopped_at, u.username, s.review_note, s.sandbox,
       CASE WHEN s.status = 'paused' AND s.pause_reason = 'window' THEN s.resume_at END,
       s.pace_per_hour, s.pace_end_at
FROM sends s
LEFT JOIN users u ON u.id = s.stopped_by AND u.account_id = s.account_id`

	// listBase is shared by the list and its count: $1 account, [$2, $3) created_at,
	// $4 status ('' any), $5 type ('' any), $6 sender line ('' any); listWhere
	// appends the mobile and text filters (find.go).
	listBase = `
WHERE s.account_id = $1 AND s.created_at >= $2 AND s.created_at < $3
  AND ($4 = '' OR s.status = $4) AND ($5 = '' OR s.type = $5) AND ($6 = '' OR s.sender = $6)` + visible

	qList = `SELECT ` + sendCols + `left(s.text, 70)` + sendRest

	qListCount = `SELECT count(*) FROM sends s`

	qStatsOfAccount = `SELECT ` + sendCols + `s.text` + sendRest + `
WHERE s.account_id = $1 AND s.id = ANY($2)` + visible

	qStatsByIDs = `SELECT ` + sendCols + `''` + sendRest + `
WHERE s.id = ANY($1)` + visible

	qSendOwned = `SELECT EXISTS (SELECT 1 FROM sends s WHERE s.id = $1 AND s.account_id = $2` + visible + `)`

	// sendType is the type of the send $1 (an InitPlan: read once per query). A
	// bank send's numbers are masked in every report and export (maskedMobile), and
	// a number cannot be looked up in one (bankSend): that would tell whether it
	// was among them (docs/targeted-sends.md).
	// A reply to a message from the bank (sends.masked) is masked as a bank send.
	sendType     = `(SELECT CASE WHEN st.masked THEN 'map' ELSE st.type END FROM sends st WHERE st.id = $1)`
	maskedMobile = `bank_masked(` + sendType + `, r.mobile)`
	bankSend     = `bank_masked(` + sendType + `, '989000000000') <> '989000000000'`

	// Recipients are read in (batch, id) order: the (send_id, batch, status) index
	// gives the batch order and each batch (at most a few thousand rows) is sorted by
	// id on its own, so a page never sorts the whole send.
	//
	// recipientPageCols add, for a page of the list, each recipient's part states
	// and the receipt state of its recorded parts (part*4 + stat, stat 0 when none
	// yet): one index lookup per row of the page.
	recipientPageCols = `SELECT r.batch, r.id, ` + maskedMobile + `, r.operator, r.parts, r.status, r.error, r.updated_at,
       r.part_states, ARRAY(SELECT m.part * 4 + coalesce(m.stat, 0) FROM message_ids m WHERE m.recipient_id = r.id)
FROM recipients_history r`

	qRecipients = recipientPageCols + `
WHERE r.send_id = $1
ORDER BY r.batch, r.id
LIMIT $2 OFFSET $3`

	qRecipientsByStatus = recipientPageCols + `
WHERE r.send_id = $1 AND r.status = ANY($4::smallint[])
ORDER BY r.batch, r.id
LIMIT $2 OFFSET $3`

	// qRecipientByMobile is one recipient of a send (the status of one message).
	qRecipientByMobile = recipientPageCols + `
WHERE r.send_id = $1 AND r.mobile = $2 AND NOT ` + bankSend + `
ORDER BY r.batch, r.id
LIMIT 1`

	// qRequested finds a number among a send's requested numbers, and whether the
	// send has been expanded since (then its recipient rows answer); never in a masked reply (a reply held for review would otherwise tell which
	// number a masked sender is).
	qRequested = `SELECT s.parts, s.created_at, s.expanded_at IS NOT NULL FROM sends s
WHERE s.id = $1 AND NOT s.masked AND $2 = ANY(s.numbers)`

	qRecipientsCount         = `SELECT count(*) FROM recipients_history WHERE send_id = $1`
	qRecipientsCountByStatus = `SELECT count(*) FROM recipients_history WHERE send_id = $1 AND status = ANY($2::smallint[])`

	// qExportAfter is the export's keyset step: the rows after (batch $2, id $3)
	// with each recipient's text, the time its final receipt came and the
	// carrier's message ids of its parts: on the recipient (msg_ids), or for one
	// recorded before them, in message_ids (kept as long as receipts may match,
	// send.DefaultIDRetention).
	qExportAfter = `SELECT r.batch, r.id, ` + maskedMobile + `, r.operator, r.parts, r.status, r.error, r.updated_at,
       coalesce(r.text, ''), r.done_at, CASE WHEN r.msg_ids IS NULL
         THEN ARRAY(SELECT m.msg_id FROM message_ids m WHERE m.recipient_id = r.id ORDER BY m.part)
         ELSE array_remove(r.msg_ids, '') END
FROM recipients_history r
WHERE r.send_id = $1 AND r.batch >= $2 AND (r.batch > $2 OR r.id > $3)
ORDER BY r.batch, r.id
LIMIT $4`

	// qExportSend is the send an export is of: its text and when it was made.
	qExportSend = `SELECT s.text, s.created_at FROM sends s WHERE s.id = $1`

	qOperatorNames = `SELECT code, name_fa FROM operators`
)
