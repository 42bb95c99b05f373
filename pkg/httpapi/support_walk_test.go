package httpapi_test

import (
	"github.com/chapar/chapar/pkg/acl"
)

// supportShared: the FAQ and contact info are the platform's, read by every account.
const supportShared = "the FAQ and the contact info are the platform's, the same for every account"

// The support routes of the walk (support.go).
func init() {
	ticketForm := func(id int64) any { return map[string]any{"ticket_id": id, "text": "پاسخ مشتری"} }
	rate := func(id int64) any { return map[string]any{"id": id, "rating": 5} }
	for k, v := range map[string]walkRoute{
		"GET /ticket/category":     {acl.SupportManage, fixed("/ticket/category", nil), listing, false},
		"GET /ticket/sub_category": {acl.SupportManage, fixed("/ticket/sub_category?category_id=1", nil), listing, false},
		"GET /ticket":              {acl.SupportManage, fixed("/ticket", nil), listing, false},
		"GET /ticket/summary":      {acl.SupportManage, fixed("/ticket/summary", nil), listing, false},
		"POST /ticket": {acl.SupportManage, fixed("/ticket", map[string]any{"kind": "suggestion", "title": "پیشنهاد", "text": "متن"}),
			listing, false},
		"GET /ticket/show/:id":       {acl.SupportManage, withID("/ticket/show/{id}", (*walk).ticket, nil), "", false},
		"POST /ticket/interaction":   {acl.SupportManage, withID("/ticket/interaction", (*walk).ticket, ticketForm), "", false},
		"POST /ticket/close":         {acl.SupportManage, withID("/ticket/close", (*walk).ticket, idBody), "", false},
		"POST /interaction/rate":     {acl.SupportManage, withID("/interaction/rate", (*walk).staffAnswer, rate), "", false},
		"POST /ticket/rate":          {acl.SupportManage, withID("/ticket/rate", (*walk).closedTicket, rate), "", false},
		"GET /ticket/attachment/:id": {acl.SupportManage, withID("/ticket/attachment/{id}", (*walk).ticketAttachment, nil), "", false},
		"GET /ticket/settings":       {acl.SupportManage, fixed("/ticket/settings", nil), own, false},
		"POST /ticket/settings":      {acl.SupportManage, fixed("/ticket/settings", map[string]any{"sms_on_answer": false}), own, false},
		"POST /ticket/feedback":      {acl.Authenticated, fixed("/ticket/feedback", map[string]any{"rating": 5}), listing, false},
		"GET /faq/category":          {acl.Authenticated, fixed("/faq/category", nil), supportShared, false},
		"GET /faq/list":              {acl.Authenticated, fixed("/faq/list?search=x", nil), supportShared, false},
		"GET /panel/contact_info":    {acl.Authenticated, fixed("/panel/contact_info", nil), supportShared, false},
	} {
		routeTable[k] = v
	}
	ownerMay404["GET /ticket/attachment/:id"] = "the fixture attachment has no stored file; TestAttachmentsCheckedByContent downloads a real one"
}

// ticket is a request of owner A waiting for support.
func (w *walk) ticket() int64 {
	return w.sql(`INSERT INTO tickets (account_id, kind, title, state) VALUES ($1, 'ticket', 'تیکت ' || $2::int, 2) RETURNING id`, w.accA, w.next())
}

// closedTicket is a closed request of owner A.
func (w *walk) closedTicket() int64 {
	return w.sql(`INSERT INTO tickets (account_id, kind, title, state, closed_at) VALUES ($1, 'ticket', 'تیکت ' || $2::int, 4, now()) RETURNING id`,
		w.accA, w.next())
}

// staffAnswer is support's answer on a request of owner A.
func (w *walk) staffAnswer() int64 {
	return w.sql(`INSERT INTO ticket_interactions (ticket_id, account_id, staff, text) VALUES ($1, $2, true, 'پاسخ') RETURNING id`,
		w.ticket(), w.accA)
}

// ticketAttachment is an attachment (no stored bytes) on owner A's answer.
func (w *walk) ticketAttachment() int64 {
	return w.sql(`INSERT INTO ticket_attachments (interaction_id, account_id, name, content_type, size, storage_key)
		VALUES ($1, $2, 'a.png', 'image/png', 1, 'tickets/none.png') RETURNING id`, w.staffAnswer(), w.accA)
}
