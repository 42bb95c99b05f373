package httpapi_test

import (
	"github.com/chapar/chapar/pkg/acl"
)

// The assistant's routes of the walk (assistant.go): the chat continues
// one of owner A's conversations, so another account gets 404; what the
// assistant can do is the same for every account.
func init() {
	routeTable["GET /panel/agent"] = walkRoute{acl.SendCreate, fixed("/panel/agent", nil), own, false}
	routeTable["POST /panel/agent"] = walkRoute{acl.SendCreate, withID("/panel/agent", (*walk).conversation, func(id int64) any {
		return map[string]any{"text": "مشتری گرامی، تخفیف ۲۰ درصدی کفش تا جمعه.", "action": "shorter", "conversation_id": id}
	}), "", false}
	routeTable["POST /ticket/ai"] = walkRoute{acl.SupportManage,
		fixed("/ticket/ai", map[string]any{"text": "پیامک‌های من به مشترکین ایرانسل نمی‌رسد."}), listing, false}
}

// conversation is an assistant conversation of owner A.
func (w *walk) conversation() int64 {
	return w.sql(`INSERT INTO assistant_conversations (account_id) VALUES ($1) RETURNING id`, w.accA)
}
