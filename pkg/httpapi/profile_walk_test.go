package httpapi_test

import "github.com/chapar/chapar/pkg/acl"

// The profile's routes in the permission walk (profile_test.go tests them in depth).
func init() {
	for k, v := range map[string]walkRoute{
		"GET /user/show_profile":                      {acl.Authenticated, fixed("/user/show_profile", nil), own, false},
		"POST /user/update_profile":                   {acl.ProfileManage, fixed("/user/update_profile", map[string]any{}), own, false},
		"POST /user/profile/logo":                     {acl.ProfileManage, fixed("/user/profile/logo", map[string]any{}), own, false},
		"GET /user/profile/logo":                      {acl.Authenticated, fixed("/user/profile/logo", nil), own, false},
		"GET /user/documents":                         {acl.ProfileManage, fixed("/user/documents", nil), listing, false},
		"POST /user/documents/upload":                 {acl.ProfileManage, fixed("/user/documents/upload", map[string]any{}), listing, false},
		"POST /user/documents/remove":                 {acl.ProfileManage, withID("/user/documents/remove", (*walk).document, idBody), "", false},
		"GET /user/documents/:id/file":                {acl.ProfileManage, withID("/user/documents/{id}/file", (*walk).document, nil), "", false},
		"GET /user/get_tariff":                        {acl.WalletView, fixed("/user/get_tariff", nil), own, false},
		"POST /user/get_tariff/calculate":             {acl.WalletView, fixed("/user/get_tariff/calculate", map[string]any{"text": "سلام", "count": 1}), own, false},
		"GET /user/setting":                           {acl.ProfileManage, fixed("/user/setting", nil), own, false},
		"POST /user/setting":                          {acl.ProfileManage, fixed("/user/setting", map[string]any{"cancel11_default": true}), own, false},
		"GET /user/plan":                              {acl.Authenticated, fixed("/user/plan", nil), own, false},
		"POST /user/change_password":                  {acl.Authenticated, fixed("/user/change_password", map[string]any{}), own, false},
		"GET /user/sessions":                          {acl.Authenticated, fixed("/user/sessions", nil), own, false},
		"POST /user/sessions/:id/revoke":              {acl.Authenticated, withID("/user/sessions/{id}/revoke", (*walk).session, nil), "", false},
		"POST /user/sessions/revoke_all":              {acl.Authenticated, fixed("/user/sessions/revoke_all", nil), own, false}, // keeps the caller's session
		"GET /user/change_mobile":                     {acl.Authenticated, fixed("/user/change_mobile", nil), own, false},
		"POST /user/change_mobile/request_change_otp": {acl.Authenticated, fixed("/user/change_mobile/request_change_otp", nil), own, false},
		"POST /user/change_mobile/confirm_change_otp": {acl.Authenticated, fixed("/user/change_mobile/confirm_change_otp", map[string]any{}), own, false},
		"POST /user/change_mobile/confirm_new_mobile": {acl.Authenticated, fixed("/user/change_mobile/confirm_new_mobile", map[string]any{}), own, false},
		"POST /user/change_mobile/cancel":             {acl.Authenticated, fixed("/user/change_mobile/cancel", nil), own, false},
	} {
		routeTable[k] = v
	}
	ownerMay404["GET /user/documents/:id/file"] = "the fixture document has no stored file; TestDocumentReview downloads a real one"
}

// document stores a pending document of owner A (its file is not stored).
func (w *walk) document() int64 {
	return w.sql(`INSERT INTO account_documents (account_id, kind, file_key, file_type, file_size)
		VALUES ($1, 'other', 'documents/walk/none.pdf', 'application/pdf', 10) RETURNING id`, w.accA)
}

// session opens another session of owner A's user.
func (w *walk) session() int64 {
	return w.sql(`INSERT INTO sessions (user_id, account_id, token_hash, expires_at)
		SELECT id, account_id, sha256(random()::text::bytea), now() + interval '1 hour' FROM users
		WHERE account_id = $1 AND is_owner RETURNING id`, w.accA)
}
