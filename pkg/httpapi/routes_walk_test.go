package httpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/chapar/chapar/internal/testing/apitest"
	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/config"
	"github.com/chapar/chapar/pkg/httpapi"
)

// walk is the cast of the permission walk: owner A with resources, owner B of
// another account, and for every permission a colleague of A whose role holds all
// the others.
type walk struct {
	t          *testing.T
	e          *apitest.Env
	tokA, tokB string
	accA       int64
	without    map[acl.Permission]string
	n          int
}

// call is one route's request: its path (ids filled in, query included) and body.
type call struct {
	path string
	body any
}

// walkRoute says what the walk expects of one route. cross, when not empty, is why
// the other-account check (404) does not apply; fresh gives the owner's call a
// session of its own (the route ends it).
type walkRoute struct {
	perm  acl.Permission
	req   func(w *walk) call
	cross string
	fresh bool
}

// Reasons the other-account check does not apply.
const (
	public    = "public: no account, no session"
	own       = "acts on the caller's own user, session or account; there is no id to borrow"
	listing   = "lists or creates within the caller's own account; there is no id to borrow"
	lineIDs   = "line ids name shared operator lines, not resources of an account"
	samples   = "the sample files are the same for every account"
	manyIDs   = "a list of ids: another account's ids are skipped (TestContactsIsolation checks they stay)"
	validated = "the form is checked before the lookup: any account gets 422 for this empty form, never the campaign"
	platform  = "the platform's payment settings and offers are the same for every account"
	blacklist = "blacklists are keyed by number, not by a resource id (TestContactsIsolation)"
	systemic  = "systemic patterns are the platform's, read by every account"
	groupForm = "another account's group is a form error (422 «گروه انتخاب‌شده یافت نشد», TestPredefinedIsolation)"
	bankData  = "the number bank is the platform's, the same for every account (pkg/bank)"
)

func fixed(path string, body any) func(*walk) call {
	return func(*walk) call { return call{path, body} }
}

func withID(format string, make func(w *walk) int64, body func(id int64) any) func(*walk) call {
	return func(w *walk) call {
		id := make(w)
		var b any
		if body != nil {
			b = body(id)
		}
		return call{strings.ReplaceAll(format, "{id}", fmt.Sprint(id)), b}
	}
}

func idBody(id int64) any { return map[string]any{"id": id} }

// routeTable is every route of the API. A route missing here fails the walk: add it
// with its permission and a resource of owner A (or the reason the 404 check does
// not apply).
var routeTable = map[string]walkRoute{
	"POST /user/check_exist":                            {acl.Public, fixed("/user/check_exist", map[string]any{}), public, false},
	"POST /user/register":                               {acl.Public, fixed("/user/register", map[string]any{}), public, false},
	"POST /user/register/verify":                        {acl.Public, fixed("/user/register/verify", map[string]any{}), public, false},
	"POST /acl/auth/login":                              {acl.Public, fixed("/acl/auth/login", map[string]any{}), public, false},
	"POST /acl/auth/login_otp":                          {acl.Public, fixed("/acl/auth/login_otp", map[string]any{}), public, false},
	"POST /acl/auth/send_sms_otp":                       {acl.Public, fixed("/acl/auth/send_sms_otp", map[string]any{}), public, false},
	"POST /acl/auth/confirm_otp":                        {acl.Public, fixed("/acl/auth/confirm_otp", map[string]any{}), public, false},
	"POST /acl/auth/forgot_password":                    {acl.Public, fixed("/acl/auth/forgot_password", map[string]any{}), public, false},
	"POST /acl/auth/forgot_password_check_otp":          {acl.Public, fixed("/acl/auth/forgot_password_check_otp", map[string]any{}), public, false},
	"POST /acl/auth/change_password_by_token":           {acl.Public, fixed("/acl/auth/change_password_by_token", map[string]any{}), public, false},
	"GET /acl/auth/login_setting":                       {acl.Public, fixed("/acl/auth/login_setting", nil), public, false},
	"POST /acl/auth/external_login/preview":             {acl.Public, fixed("/acl/auth/external_login/preview", map[string]any{}), public, false},
	"POST /acl/auth/external_login":                     {acl.Public, fixed("/acl/auth/external_login", map[string]any{}), public, false},
	"POST /user/partner/accept_invite":                  {acl.Public, fixed("/user/partner/accept_invite", map[string]any{}), public, false},
	"POST /acl/auth/logout":                             {acl.Authenticated, fixed("/acl/auth/logout", nil), own, true},
	"GET /acl/auth/check_token":                         {acl.Authenticated, fixed("/acl/auth/check_token", nil), own, false},
	"POST /live/ticket":                                 {acl.Authenticated, fixed("/live/ticket", nil), own, false},
	"GET /user/2fa":                                     {acl.Authenticated, fixed("/user/2fa", nil), own, false},
	"GET /user/2fa/show_qr":                             {acl.Authenticated, fixed("/user/2fa/show_qr", nil), own, false},
	"POST /user/2fa/enable":                             {acl.Authenticated, fixed("/user/2fa/enable", map[string]any{}), own, false},
	"POST /user/2fa/disable":                            {acl.Authenticated, fixed("/user/2fa/disable", map[string]any{}), own, false},
	"GET /acl/list":                                     {acl.Authenticated, fixed("/acl/list", nil), own, false},
	"POST /acl/auth/external_login/issue":               {acl.Authenticated, withID("/acl/auth/external_login/issue", (*walk).colleague, func(id int64) any { return map[string]any{"user_id": id} }), "", false},
	"GET /payment/credit/mine":                          {acl.WalletView, fixed("/payment/credit/mine", nil), own, false},
	"GET /number/numbers":                               {acl.NumberView, fixed("/number/numbers", nil), listing, false},
	"POST /numbers/defaults/upsert":                     {acl.NumberManage, fixed("/numbers/defaults/upsert", map[string]any{}), lineIDs, false},
	"POST /send/calculate-price":                        {acl.SendCreate, fixed("/send/calculate-price", map[string]any{}), listing, false},
	"GET /send/hours":                                   {acl.SendCreate, fixed("/send/hours", nil), own, false},
	"POST /send/hours":                                  {acl.ProfileManage, fixed("/send/hours", map[string]any{}), own, false},
	"POST /send":                                        {acl.SendCreate, fixed("/send", map[string]any{}), listing, false},
	"POST /send/test":                                   {acl.SendCreate, fixed("/send/test", map[string]any{}), listing, false},
	"POST /send/cancel":                                 {acl.SendCancel, withID("/send/cancel", (*walk).send, idBody), "", false},
	"POST /send/pause":                                  {acl.SendCancel, withID("/send/pause", (*walk).send, idBody), "", false},
	"POST /send/resume":                                 {acl.SendCancel, withID("/send/resume", (*walk).send, idBody), "", false},
	"GET /send/scheduled":                               {acl.ReportView, fixed("/send/scheduled", nil), listing, false},
	"POST /send/scheduled/update":                       {acl.SendCreate, withID("/send/scheduled/update", (*walk).send, func(id int64) any { return map[string]any{"id": id, "text": "سلام"} }), "", false},
	"GET /send/campaigns":                               {acl.ReportView, fixed("/send/campaigns", nil), listing, false},
	"POST /send/campaigns":                              {acl.SendCreate, fixed("/send/campaigns", map[string]any{}), listing, false},
	"POST /send/campaigns/update":                       {acl.SendCreate, withID("/send/campaigns/update", (*walk).campaign, idBody), validated, false},
	"POST /send/campaigns/toggle":                       {acl.SendCreate, withID("/send/campaigns/toggle", (*walk).campaign, idBody), "", false},
	"POST /send/campaigns/delete":                       {acl.SendCreate, withID("/send/campaigns/delete", (*walk).campaign, idBody), "", false},
	"GET /send/campaigns/:id/runs":                      {acl.ReportView, withID("/send/campaigns/{id}/runs", (*walk).campaign, nil), "", false},
	"POST /send/campaigns/run-today":                    {acl.SendCreate, withID("/send/campaigns/run-today", (*walk).campaign, idBody), "", false},
	"POST /send/occasions/upcoming":                     {acl.SendCreate, fixed("/send/occasions/upcoming", map[string]any{}), listing, false},
	"GET /report/new_list":                              {acl.ReportView, fixed("/report/new_list", nil), listing, false},
	"GET /report/archive_list":                          {acl.ReportView, fixed("/report/archive_list", nil), listing, false},
	"GET /report/bulk_stats":                            {acl.ReportView, withID("/report/bulk_stats?id={id}", (*walk).send, nil), "", false},
	"GET /report/archive_bulk_stats":                    {acl.ReportView, withID("/report/archive_bulk_stats?id={id}", (*walk).send, nil), "", false},
	"GET /report/by_bulk":                               {acl.ReportView, withID("/report/by_bulk?ids={id}", (*walk).send, nil), manyIDs, false},
	"GET /report/recipients":                            {acl.ReportView, withID("/report/recipients?id={id}", (*walk).send, nil), "", false},
	"GET /send/status":                                  {acl.ReportView, withID("/send/status?id={id}", (*walk).send, nil), "", false},
	"GET /send/simple":                                  {acl.SendCreate, fixed("/send/simple?to=09121234567&text=x", nil), listing, false},
	"GET /inbox/since":                                  {acl.ReportView, fixed("/inbox/since", nil), listing, false},
	"GET /report/messages-inbox":                        {acl.ReportView, fixed("/report/messages-inbox", nil), listing, false},
	"GET /report/messages-inbox/export":                 {acl.ReportView, fixed("/report/messages-inbox/export", nil), listing, false},
	"GET /report/messages-inbox/unread":                 {acl.ReportView, fixed("/report/messages-inbox/unread", nil), listing, false},
	"GET /report/messages-inbox/thread":                 {acl.ReportView, withID("/report/messages-inbox/thread?id={id}", (*walk).inboxMessage, nil), "", false},
	"POST /report/messages-inbox/read":                  {acl.InboxManage, fixed("/report/messages-inbox/read", map[string]any{"ids": []int64{1}}), manyIDs, false},
	"POST /report/messages-inbox/reply":                 {acl.SendCreate, withID("/report/messages-inbox/reply", (*walk).inboxMessage, idBody), "", false},
	"POST /report/messages-inbox/delete-list":           {acl.InboxManage, fixed("/report/messages-inbox/delete-list", map[string]any{"ids": []int64{1}}), manyIDs, false},
	"GET /phonebooks/advanced-services/advanced-reader": {acl.SecretaryView, fixed("/phonebooks/advanced-services/advanced-reader", nil), listing, false},
	"GET /phonebooks/advanced-services/advanced-reader/get-variables":    {acl.SecretaryView, fixed("/phonebooks/advanced-services/advanced-reader/get-variables?kind=gift", nil), listing, false},
	"GET /phonebooks/advanced-services/advanced-reader/:id":              {acl.SecretaryView, withID("/phonebooks/advanced-services/advanced-reader/{id}", (*walk).gift, nil), "", false},
	"POST /phonebooks/advanced-services/advanced-reader":                 {acl.SecretaryManage, fixed("/phonebooks/advanced-services/advanced-reader", map[string]any{}), listing, false},
	"POST /phonebooks/advanced-services/advanced-reader/update":          {acl.SecretaryManage, withID("/phonebooks/advanced-services/advanced-reader/update", (*walk).gift, readerForm), "", false},
	"POST /phonebooks/advanced-services/advanced-reader/delete-list":     {acl.SecretaryManage, fixed("/phonebooks/advanced-services/advanced-reader/delete-list", map[string]any{"ids": []int64{1}}), manyIDs, false},
	"POST /phonebooks/advanced-services/advanced-reader/:id/toggle":      {acl.SecretaryManage, withID("/phonebooks/advanced-services/advanced-reader/{id}/toggle", (*walk).gift, func(int64) any { return map[string]any{"active": false} }), "", false},
	"POST /phonebooks/advanced-services/advanced-reader/:id/codes":       {acl.SecretaryManage, withID("/phonebooks/advanced-services/advanced-reader/{id}/codes", (*walk).gift, func(int64) any { return map[string]any{"codes": "A1\nA2"} }), "", false},
	"GET /phonebooks/advanced-services/advanced-reader/:id/export-codes": {acl.SecretaryView, withID("/phonebooks/advanced-services/advanced-reader/{id}/export-codes", (*walk).gift, nil), "", false},
	"POST /phonebooks/advanced-services/advanced-reader/:id/draw":        {acl.SecretaryManage, withID("/phonebooks/advanced-services/advanced-reader/{id}/draw", (*walk).contest, func(int64) any { return map[string]any{"winners": 1} }), "", false},
	"GET /phonebooks/advanced-services/advanced-reader/:id/draws":        {acl.SecretaryView, withID("/phonebooks/advanced-services/advanced-reader/{id}/draws", (*walk).contest, nil), "", false},
	"GET /phonebooks/advanced-services/advanced-reader/:id/results":      {acl.SecretaryView, withID("/phonebooks/advanced-services/advanced-reader/{id}/results", (*walk).gift, nil), "", false},
	"GET /phonebooks/advanced-services/general-messaging":                {acl.SecretaryView, fixed("/phonebooks/advanced-services/general-messaging", nil), listing, false},
	"POST /phonebooks/advanced-services/general-messaging/delete-list":   {acl.SecretaryManage, fixed("/phonebooks/advanced-services/general-messaging/delete-list", map[string]any{"ids": []int64{1}}), manyIDs, false},
	"GET /phonebooks/advanced-services/module-inboxes-list":              {acl.SecretaryView, fixed("/phonebooks/advanced-services/module-inboxes-list?reader_id=1", nil), listing, false},
	"GET /phonebooks/advanced-services/module-inboxes-list/export":       {acl.SecretaryView, fixed("/phonebooks/advanced-services/module-inboxes-list/export?reader_id=1", nil), listing, false},
	"GET /numbers/receiver-list":                                         {acl.SecretaryView, fixed("/numbers/receiver-list", nil), listing, false},
	"GET /openapi.json":                                                  {acl.Public, fixed("/openapi.json", nil), public, false},
	"GET /panel/api-docs":                                                {acl.Authenticated, fixed("/panel/api-docs", nil), own, false},
	"GET /panel/plugins":                                                 {acl.Authenticated, fixed("/panel/plugins", nil), own, false},
	"GET /plugins/:id/download":                                          {acl.Public, fixed("/plugins/wordpress/download", nil), public, false},
	"GET /panel/libraries":                                               {acl.Authenticated, fixed("/panel/libraries", nil), own, false},
	"GET /sdk/:id/download":                                              {acl.Public, fixed("/sdk/php/download", nil), public, false},
	"GET /report/download_recipients":                                    {acl.ReportView, withID("/report/download_recipients?id={id}", (*walk).send, nil), "", false},
	"POST /phonebooks":                                                   {acl.PhonebookManage, fixed("/phonebooks", map[string]any{"name": "تازه"}), listing, false},
	"POST /phonebooks/update":                                            {acl.PhonebookManage, withID("/phonebooks/update", (*walk).phonebook, func(id int64) any { return map[string]any{"id": id, "name": "نو"} }), "", false},
	"POST /phonebooks/delete-list":                                       {acl.PhonebookManage, withID("/phonebooks/delete-list", (*walk).phonebook, func(id int64) any { return map[string]any{"ids": []int64{id}} }), manyIDs, false},
	"GET /phonebooks/list-new":                                           {acl.PhonebookView, fixed("/phonebooks/list-new", nil), listing, false},
	"GET /phonebooks/:id":                                                {acl.PhonebookView, withID("/phonebooks/{id}", (*walk).phonebook, nil), "", false},
	"GET /phonebooks/options/list-new":                                   {acl.PhonebookView, fixed("/phonebooks/options/list-new", nil), listing, false},
	"GET /phonebooks/options-with-default":                               {acl.PhonebookView, fixed("/phonebooks/options-with-default", nil), listing, false},
	"GET /phonebooks/numbers/count":                                      {acl.PhonebookView, withID("/phonebooks/numbers/count?phonebook_ids={id}", (*walk).phonebook, nil), "", false},
	"GET /panel/first-steps":                                             {acl.Authenticated, fixed("/panel/first-steps", nil), listing, false},
	"GET /panel/dashboard_charts":                                        {acl.ReportView, fixed("/panel/dashboard_charts", nil), listing, false},
	"GET /report/analytics":                                              {acl.ReportView, withID("/report/analytics?id={id}", (*walk).send, nil), "", false},
	"GET /report/systemic_list":                                          {acl.ReportView, fixed("/report/systemic_list", nil), listing, false},
	"GET /report/systemic_list/export":                                   {acl.ReportView, fixed("/report/systemic_list/export", nil), listing, false},
	"POST /phonebooks/numbers/add-list-new": {acl.PhonebookManage, withID("/phonebooks/numbers/add-list-new", (*walk).phonebook, func(id int64) any {
		return map[string]any{"phonebook_id": id, "contacts": []map[string]any{{"number": "09121239999"}}}
	}), "", false},
	"POST /phonebooks/numbers/update-new":    {acl.PhonebookManage, withID("/phonebooks/numbers/update-new", (*walk).contact, func(id int64) any { return map[string]any{"id": id, "number": "09121239998"} }), "", false},
	"POST /phonebooks/numbers/delete-list":   {acl.PhonebookManage, withID("/phonebooks/numbers/delete-list", (*walk).contact, func(id int64) any { return map[string]any{"ids": []int64{id}} }), manyIDs, false},
	"GET /phonebooks/numbers/contact-list":   {acl.PhonebookView, fixed("/phonebooks/numbers/contact-list", nil), listing, false},
	"GET /phonebooks/numbers/:id":            {acl.PhonebookView, withID("/phonebooks/numbers/{id}", (*walk).contact, nil), "", false},
	"GET /phonebooks/numbers/list":           {acl.PhonebookView, fixed("/phonebooks/numbers/list", nil), listing, false},
	"GET /phonebooks/numbers/tags":           {acl.PhonebookView, fixed("/phonebooks/numbers/tags", nil), listing, false},
	"POST /phonebooks/numbers/tags":          {acl.PhonebookManage, fixed("/phonebooks/numbers/tags", map[string]any{"name": "برچسب"}), listing, false},
	"POST /phonebooks/tags/delete-list":      {acl.PhonebookManage, fixed("/phonebooks/tags/delete-list", map[string]any{"ids": []int64{1}}), manyIDs, false},
	"GET /phonebooks/options":                {acl.PhonebookView, fixed("/phonebooks/options", nil), listing, false},
	"POST /phonebooks/options":               {acl.PhonebookManage, fixed("/phonebooks/options", map[string]any{}), listing, false},
	"POST /phonebooks/options/delete-list":   {acl.PhonebookManage, fixed("/phonebooks/options/delete-list", map[string]any{"ids": []int64{1}}), manyIDs, false},
	"GET /phonebooks/blacklist":              {acl.PhonebookView, fixed("/phonebooks/blacklist", nil), listing, false},
	"POST /phonebooks/blacklist":             {acl.PhonebookManage, fixed("/phonebooks/blacklist", map[string]any{}), blacklist, false},
	"POST /phonebooks/blacklist/delete-list": {acl.PhonebookManage, fixed("/phonebooks/blacklist/delete-list", map[string]any{}), blacklist, false},
	"GET /phonebooks/blacklist/export":       {acl.PhonebookView, fixed("/phonebooks/blacklist/export", nil), listing, false},
	"POST /phonebooks/numbers/import":        {acl.PhonebookManage, (*walk).importCall, "", false},
	"GET /phonebooks/numbers/import/sample":  {acl.PhonebookView, fixed("/phonebooks/numbers/import/sample", nil), samples, false},
	"GET /phonebooks/numbers/import/:id":     {acl.PhonebookView, withID("/phonebooks/numbers/import/{id}", (*walk).contactImport, nil), "", false},
	"GET /phonebooks/numbers/export":         {acl.PhonebookView, fixed("/phonebooks/numbers/export", nil), listing, false},
	"POST /user/files":                       {acl.FileManage, fixed("/user/files", map[string]any{}), listing, false},
	"GET /user/files":                        {acl.FileManage, fixed("/user/files", nil), listing, false},
	"GET /user/files/categories":             {acl.FileManage, fixed("/user/files/categories", nil), listing, false},
	"GET /user/files/samples/:purpose":       {acl.FileManage, fixed("/user/files/samples/contacts", nil), samples, false},
	"POST /user/files/delete":                {acl.FileManage, withID("/user/files/delete", (*walk).file, idBody), "", false},
	"GET /user/files/:id":                    {acl.FileManage, withID("/user/files/{id}", (*walk).file, nil), "", false},
	"GET /user/files/:id/download":           {acl.FileManage, withID("/user/files/{id}/download", (*walk).file, nil), "", false},
	"GET /user/files/:id/errors/download":    {acl.FileManage, withID("/user/files/{id}/errors/download", (*walk).file, nil), "", false},
	"GET /acl/partner/permission_list":       {acl.PartnerManage, fixed("/acl/partner/permission_list", nil), listing, false},
	"GET /acl/partner/role_list":             {acl.PartnerManage, fixed("/acl/partner/role_list", nil), listing, false},
	"GET /acl/partner/show_role/:id":         {acl.PartnerManage, withID("/acl/partner/show_role/{id}", (*walk).role, nil), "", false},
	"POST /acl/partner/create_role":          {acl.PartnerManage, fixed("/acl/partner/create_role", map[string]any{"name": "نو", "permissions": []acl.Permission{acl.ReportView}}), listing, false},
	"POST /acl/partner/update_role": {acl.PartnerManage, withID("/acl/partner/update_role", (*walk).role, func(id int64) any {
		return map[string]any{"id": id, "name": fmt.Sprint("نقش ", id), "permissions": []acl.Permission{acl.ReportView}}
	}), "", false},
	"POST /acl/partner/delete_role":    {acl.PartnerManage, withID("/acl/partner/delete_role", (*walk).role, idBody), "", false},
	"POST /acl/partner/copy_role":      {acl.PartnerManage, withID("/acl/partner/copy_role", (*walk).role, idBody), "", false},
	"GET /user/partner/list":           {acl.PartnerManage, fixed("/user/partner/list", nil), listing, false},
	"GET /user/partner/show/:id":       {acl.PartnerManage, withID("/user/partner/show/{id}", (*walk).colleague, nil), "", false},
	"POST /user/partner/create":        {acl.PartnerManage, fixed("/user/partner/create", map[string]any{}), listing, false},
	"POST /user/partner/update":        {acl.PartnerManage, (*walk).colleagueUpdate, "", false},
	"POST /user/partner/deactive":      {acl.PartnerManage, withID("/user/partner/deactive", (*walk).colleague, idBody), "", false},
	"POST /user/partner/active":        {acl.PartnerManage, withID("/user/partner/active", (*walk).colleague, idBody), "", false},
	"POST /user/partner/resend_invite": {acl.PartnerManage, withID("/user/partner/resend_invite", (*walk).colleague, idBody), "", false},
	"GET /user/audit":                  {acl.AuditView, fixed("/user/audit", nil), listing, false},
	"GET /user/audit/options":          {acl.AuditView, fixed("/user/audit/options", nil), listing, false},
	"GET /user/audit/export":           {acl.AuditView, fixed("/user/audit/export", nil), listing, false},
	"POST /report/payment/new":         {acl.WalletView, fixed("/report/payment/new", map[string]any{}), listing, false},
	"POST /report/payment/export/new":  {acl.WalletView, fixed("/report/payment/export/new", map[string]any{"export_type": "financial"}), listing, false},
	"GET /user/setting/low_balance":    {acl.WalletAlert, fixed("/user/setting/low_balance", nil), own, false},
	"GET /payment/generate-url":        {acl.WalletPay, fixed("/payment/generate-url?amount=1000000", nil), listing, false},
	"GET /payment/online/:id":          {acl.WalletView, withID("/payment/online/{id}", (*walk).payment, nil), "", false},
	"GET /payment/invoice/:id":         {acl.WalletView, withID("/payment/invoice/{id}", (*walk).paidPayment, nil), "", false},
	"GET /payment/callback":            {acl.Public, fixed("/payment/callback", nil), public, false},
	"POST /payment/callback":           {acl.Public, fixed("/payment/callback", map[string]any{}), public, false},
	"GET /content/:kind":               {acl.Authenticated, fixed("/content/news", nil), "staff-edited content is the same for every account", false},
	"GET /content/dashboard":           {acl.Authenticated, fixed("/content/dashboard", nil), "staff-edited content is the same for every account", false},
	"GET /user/news/user_news_list":    {acl.Authenticated, fixed("/user/news/user_news_list", nil), own, false},
	"POST /user/news/:id/read":         {acl.Authenticated, fixed("/user/news/1/read", nil), "staff news are the same for every account; the read mark is the caller's own", false},
	"POST /user/news/read_all":         {acl.Authenticated, fixed("/user/news/read_all", nil), own, false},
	"GET /panel/banners":               {acl.Authenticated, fixed("/panel/banners", nil), "staff-edited content is the same for every account", false},
	"GET /panel/quick_access":          {acl.Authenticated, fixed("/panel/quick_access", nil), "staff-edited content is the same for every account", false},
	"POST /user/setting/low_balance":   {acl.WalletAlert, fixed("/user/setting/low_balance", map[string]any{"enabled": true, "threshold": 300000}), own, false},
	"GET /acl/api_key/list":            {acl.APIKeyManage, fixed("/acl/api_key/list", nil), listing, false},
	"GET /acl/api_key/scopes":          {acl.APIKeyManage, fixed("/acl/api_key/scopes", nil), own, false},
	"POST /acl/api_key/otp":            {acl.APIKeyManage, fixed("/acl/api_key/otp", nil), own, false},
	"POST /acl/api_key/create":         {acl.APIKeyManage, fixed("/acl/api_key/create", map[string]any{}), listing, false},
	"GET /acl/api_key/show/:id":        {acl.APIKeyManage, withID("/acl/api_key/show/{id}", (*walk).apiKey, nil), "", false},
	"DELETE /acl/api_key":              {acl.APIKeyManage, withID("/acl/api_key", (*walk).apiKey, idBody), "", false},
	"GET /patterns":                    {acl.SendCreate, fixed("/patterns", nil), listing, false},
	"GET /patterns/normal":             {acl.SendCreate, fixed("/patterns/normal", nil), listing, false},
	"GET /patterns/systemic":           {acl.SendCreate, fixed("/patterns/systemic", nil), systemic, false},
	"GET /patterns/systemic/:id":       {acl.SendCreate, withID("/patterns/systemic/{id}", (*walk).systemicPattern, nil), systemic, false},
	"GET /patterns/brand":              {acl.SendCreate, fixed("/patterns/brand", nil), own, false},
	"GET /patterns/:id":                {acl.SendCreate, withID("/patterns/{id}", (*walk).pattern, nil), "", false},
	"POST /patterns":                   {acl.PatternManage, fixed("/patterns", map[string]any{}), listing, false},
	"PUT /patterns/:id":                {acl.PatternManage, withID("/patterns/{id}", (*walk).pattern, func(int64) any { return map[string]any{} }), "", false},
	"POST /patterns/send":              {acl.SendCreate, fixed("/patterns/send", map[string]any{}), listing, false},
	// Webhooks and the API-call log (webhooks_test.go).
	"GET /developers/webhooks":                  {acl.APIKeyManage, fixed("/developers/webhooks", nil), listing, false},
	"POST /developers/webhooks":                 {acl.APIKeyManage, fixed("/developers/webhooks", map[string]any{}), listing, false},
	"POST /developers/webhooks/update":          {acl.APIKeyManage, withID("/developers/webhooks/update", (*walk).webhook, idBody), "", false},
	"POST /developers/webhooks/delete":          {acl.APIKeyManage, withID("/developers/webhooks/delete", (*walk).webhook, idBody), "", false},
	"POST /developers/webhooks/test":            {acl.APIKeyManage, withID("/developers/webhooks/test", (*walk).webhook, idBody), "", false},
	"GET /developers/webhooks/deliveries":       {acl.APIKeyManage, fixed("/developers/webhooks/deliveries", nil), listing, false},
	"POST /developers/webhooks/replay":          {acl.APIKeyManage, withID("/developers/webhooks/replay", (*walk).deadDelivery, idBody), "", false},
	"GET /developers/api-calls":                 {acl.APIKeyManage, fixed("/developers/api-calls", nil), listing, false},
	"GET /developers/api-calls/export":          {acl.APIKeyManage, fixed("/developers/api-calls/export", nil), listing, false},
	"GET /developers/api-calls/:id":             {acl.APIKeyManage, withID("/developers/api-calls/{id}", (*walk).apiCall, nil), "", false},
	"POST /payment/offline/card-to-card-create": {acl.WalletPay, fixed("/payment/offline/card-to-card-create", map[string]any{}), listing, false},
	"POST /payment/offline/bank-pay-create":     {acl.WalletPay, fixed("/payment/offline/bank-pay-create", map[string]any{}), listing, false},
	"GET /payment/offline/list":                 {acl.WalletView, fixed("/payment/offline/list", nil), listing, false},
	"GET /payment/offline/card-owner":           {acl.WalletView, fixed("/payment/offline/card-owner", nil), platform, false},
	"GET /user/setting/payment_method_list":     {acl.WalletView, fixed("/user/setting/payment_method_list", nil), platform, false},
	"GET /user/setting/parent_account_contact":  {acl.WalletView, fixed("/user/setting/parent_account_contact", nil), platform, false},
	"GET /payment/charge-packages/dynamics":     {acl.WalletView, fixed("/payment/charge-packages/dynamics", nil), platform, false},
	"POST /payment/charge-packages/select":      {acl.WalletPay, fixed("/payment/charge-packages/select", map[string]any{"package_id": 1}), listing, false},
	"GET /payment/promotion/today-charge":       {acl.WalletView, fixed("/payment/promotion/today-charge", nil), own, false},
	"GET /user/predefined/group/list":           {acl.PredefinedView, fixed("/user/predefined/group/list", nil), listing, false},
	"GET /user/predefined/group/count":          {acl.PredefinedView, fixed("/user/predefined/group/count", nil), listing, false},
	"GET /user/predefined/group/show/:id":       {acl.PredefinedView, withID("/user/predefined/group/show/{id}", (*walk).predefinedGroup, nil), "", false},
	"POST /user/predefined/group":               {acl.PredefinedManage, fixed("/user/predefined/group", map[string]any{"title": "گروه تازه"}), listing, false},
	"POST /user/predefined/group/update":        {acl.PredefinedManage, withID("/user/predefined/group/update", (*walk).predefinedGroup, func(id int64) any { return map[string]any{"id": id, "title": "نام نو"} }), "", false},
	"POST /user/predefined/group/delete":        {acl.PredefinedManage, withID("/user/predefined/group/delete", (*walk).predefinedGroup, idBody), "", false},
	"GET /user/predefined/list":                 {acl.PredefinedView, fixed("/user/predefined/list", nil), listing, false},
	"GET /user/predefined/show/:id":             {acl.PredefinedView, withID("/user/predefined/show/{id}", (*walk).predefinedMessage, nil), "", false},
	"POST /user/predefined":                     {acl.PredefinedManage, withID("/user/predefined", (*walk).predefinedGroup, func(id int64) any { return map[string]any{"group_id": id, "title": "پیام", "text": "سلام"} }), groupForm, false},
	"POST /user/predefined/update": {acl.PredefinedManage, withID("/user/predefined/update", (*walk).predefinedMessage, func(id int64) any {
		return map[string]any{"id": id, "group_id": 1, "title": "پیام", "text": "سلام"}
	}), "", false},
	"POST /user/predefined/delete":      {acl.PredefinedManage, withID("/user/predefined/delete", (*walk).predefinedMessage, idBody), "", false},
	"POST /user/draft":                  {acl.SendCreate, withID("/user/draft", (*walk).draft, func(id int64) any { return map[string]any{"id": id, "type": "quick", "text": "سلام"} }), "", false},
	"GET /user/draft/list":              {acl.SendCreate, fixed("/user/draft/list", nil), listing, false},
	"GET /user/draft/show/:id":          {acl.SendCreate, withID("/user/draft/show/{id}", (*walk).draft, nil), "", false},
	"POST /user/draft/delete":           {acl.SendCreate, withID("/user/draft/delete", (*walk).draft, idBody), "", false},
	"GET /panel/link_tracker":           {acl.SendCreate, fixed("/panel/link_tracker", nil), listing, false},
	"GET /panel/link_tracker/settings":  {acl.SendCreate, fixed("/panel/link_tracker/settings", nil), listing, false},
	"POST /panel/link_tracker":          {acl.SendCreate, withID("/panel/link_tracker", (*walk).trackedLink, func(int64) any { return map[string]any{"title": "لینک", "url": "https://example.com/a"} }), listing, false},
	"POST /panel/link_tracker/delete":   {acl.SendCreate, withID("/panel/link_tracker/delete", (*walk).trackedLink, idBody), "", false},
	"GET /panel/link_tracker/:id/stats": {acl.ReportView, withID("/panel/link_tracker/{id}/stats", (*walk).trackedLink, nil), "", false},

	// The number bank of targeted sends.
	"POST /send/banks/counts":        {acl.SendCreate, fixed("/send/banks/counts", map[string]any{"type": "city_province", "target": map[string]any{"provinces": []int{28}}}), bankData, false},
	"GET /send/banks/provinces":      {acl.SendCreate, fixed("/send/banks/provinces", nil), bankData, false},
	"GET /send/banks/counties":       {acl.SendCreate, fixed("/send/banks/counties?province_id=28", nil), bankData, false},
	"GET /send/banks/cities":         {acl.SendCreate, fixed("/send/banks/cities?province_id=28", nil), bankData, false},
	"GET /send/banks/towers":         {acl.SendCreate, fixed("/send/banks/towers?min_lon=51&min_lat=35&max_lon=52&max_lat=36", nil), bankData, false},
	"GET /send/banks/outlines/:kind": {acl.SendCreate, fixed("/send/banks/outlines/provinces", nil), bankData, false},
	"GET /send/banks/map-settings":   {acl.SendCreate, fixed("/send/banks/map-settings", nil), bankData, false},
	"GET /send/jobs/categories":      {acl.SendCreate, fixed("/send/jobs/categories", nil), bankData, false},
	"GET /send/jobs/sub-categories":  {acl.SendCreate, fixed("/send/jobs/sub-categories?category_id=1", nil), bankData, false},
	"POST /send/jobs/number-count":   {acl.SendCreate, fixed("/send/jobs/number-count", map[string]any{"target": map[string]any{"categories": []int{1}}}), bankData, false},
}

// ownerMay404 names the routes whose owner call may answer 404, and why.
var ownerMay404 = map[string]string{
	"GET /user/files/:id/download": "the fixture file has no stored original; TestFileUpload downloads a real one",
}

// TestRouteWalk walks every route of the route table: (b) a colleague whose role
// lacks the route's permission gets 403-8, (c) another account asking for owner A's
// resource gets 404, (a) the owner is let through. A route without an entry here, or
// whose permission is not one a role can hold, fails the test.
func TestRouteWalk(t *testing.T) {
	w := newWalk(t)
	seen := map[string]bool{}
	for _, rt := range httpapi.RoutesOf(w.e.Deps) {
		key := rt.Method + " " + rt.Path
		if strings.HasPrefix(rt.Path, "/admin/") {
			w.checkStaffRoute(t, rt)
			continue
		}
		seen[key] = true
		want, ok := routeTable[key]
		switch {
		case !ok:
			t.Errorf("%s is not in the walk's route table: add it with its permission and a resource of owner A", key)
			continue
		case rt.Perm != acl.Public && rt.Perm != acl.Authenticated && !acl.Known(rt.Perm):
			t.Errorf("%s declares %q, which no role can hold", key, rt.Perm)
		case rt.Perm != want.perm:
			t.Errorf("%s declares %q, the walk expects %q", key, rt.Perm, want.perm)
			continue
		}
		t.Run(strings.ReplaceAll(key, "/", "_"), func(t *testing.T) { w.check(t, rt.Method, want, ownerMay404[key] != "") })
	}
	for key := range routeTable {
		if !seen[key] {
			t.Errorf("the walk's table names %s, which is not a route", key)
		}
	}
}

// checkStaffRoute: a back-office route declares acl.Staff or acl.StaffOperations (or is one of the staff
// login steps, public) and answers a customer's token 404, so that it cannot be
// discovered (TestStaffLoginAndGuards covers the staff side).
func (w *walk) checkStaffRoute(t *testing.T, rt httpapi.Route) {
	key := rt.Method + " " + rt.Path
	switch rt.Perm {
	case acl.Public:
		if !strings.HasPrefix(rt.Path, "/admin/auth/") {
			t.Errorf("%s: a public back-office route outside /admin/auth/", key)
		}
	case acl.Staff, acl.StaffOperations:
		t.Run(strings.ReplaceAll(key, "/", "_"), func(t *testing.T) {
			c := call{strings.ReplaceAll(rt.Path, ":id", "1"), map[string]any{}}
			if st, _, raw := w.do(rt.Method, c, w.tokA); st != 404 {
				t.Errorf("customer owner on a staff route: %d %.300s", st, raw)
			}
		})
	default:
		t.Errorf("%s declares %q: back-office routes declare acl.Staff or acl.StaffOperations", key, rt.Perm)
	}
}

// check runs the three calls of one route, the owner's last so that it cannot
// remove the resource before the others ask for it.
func (w *walk) check(t *testing.T, method string, want walkRoute, may404 bool) {
	c := want.req(w)
	if want.perm != acl.Public && want.perm != acl.Authenticated {
		lacking, ok := w.without[want.perm]
		if !ok { // an owner-only permission: every colleague lacks it
			lacking = w.without[acl.All[0]]
		}
		if st, code, raw := w.do(method, c, lacking); st != 403 || code != "403-8" {
			t.Errorf("colleague without %s: %d %.300s", want.perm, st, raw)
		}
	}
	if want.cross == "" {
		if st, _, raw := w.do(method, c, w.tokB); st != 404 {
			t.Errorf("another account: %d %.300s", st, raw)
		}
	}
	tok := w.tokA
	if want.fresh {
		tok = w.e.Login("walker", pw)
	}
	st, _, raw := w.do(method, c, tok)
	// A public route answers 401 to a bad or missing login token of its own.
	unauthorized := st == 401 && want.perm != acl.Public
	if unauthorized || st == 403 || st >= 500 || want.cross == "" && st == 404 && !may404 {
		t.Errorf("owner: %d %.300s", st, raw)
	}
}

// do calls a route; downloads answer files, so the envelope is read only when there is one.
func (w *walk) do(method string, c call, token string) (status int, code string, raw []byte) {
	var rd io.Reader
	if c.body != nil {
		b, _ := json.Marshal(c.body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, w.e.URL+"/v1/api"+c.path, rd)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		w.t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ = io.ReadAll(res.Body)
	var env struct {
		Meta struct {
			MessageCode string `json:"message_code"`
		}
	}
	_ = json.Unmarshal(raw, &env)
	return res.StatusCode, env.Meta.MessageCode, raw
}

func newWalk(t *testing.T) *walk {
	// A colleague per permission and per route that needs one: more invitations than
	// a day's cap (TestInvitationsCarryNoOwnerText tests the cap).
	e := apitest.Start(t, func(c *config.Config) {
		c.LoginPerIPPerMin, c.LoginPerUserPerMin, c.InvitesPerDay = 1000, 1000, 1000
	})
	w := &walk{t: t, e: e, without: map[acl.Permission]string{}}
	w.tokA, w.accA = owner(t, e, "walker", "09121240000")
	setPlan(t, e, w.accA, "enterprise") // a colleague per permission, readers and keys
	w.tokB, _ = owner(t, e, "stranger", "09121240001")
	for i, p := range acl.All {
		others := slices.DeleteFunc(slices.Clone(acl.All), func(q acl.Permission) bool { return q == p })
		role := makeRole(t, e, w.tokA, "بدون "+string(p), others...)
		w.without[p] = acceptAndLogin(t, e, inviteColleague(t, e, w.tokA, fmt.Sprintf("0912125%04d", i), role))
	}
	return w
}

func (w *walk) next() int { w.n++; return w.n }

func (w *walk) sql(query string, args ...any) int64 {
	w.t.Helper()
	var id int64
	if err := w.e.DB.Pool.QueryRow(context.Background(), query, args...).Scan(&id); err != nil {
		w.t.Fatal(err)
	}
	return id
}

func (w *walk) payment() int64 {
	var p struct {
		PaymentID int64 `json:"payment_id"`
	}
	w.e.Must(200, "GET", "/v1/api/payment/generate-url?amount=1000000", nil, w.tokA).Decode(w.t, &p)
	return p.PaymentID
}

// paidPayment is a settled payment of owner A, as the bank's callback leaves it.
func (w *walk) paidPayment() int64 {
	return w.sql(`INSERT INTO payments (account_id, amount, tax, total, gateway, state, settled_at)
		VALUES ($1, 1000000, 100000, 1100000, 'sandbox', 'paid', now()) RETURNING id`, w.accA)
}

// apiKey stores a key of owner A (its secret is of no use to the walk).
func (w *walk) apiKey() int64 {
	return w.sql(`INSERT INTO api_keys (account_id, created_by, title, prefix, secret_hash, scopes)
		SELECT $1, id, 'walk', 'chp_live_walk' || $2::int, '\x00', '{report.view}' FROM users WHERE account_id = $1 AND is_owner
		RETURNING id`, w.accA, w.next())
}

// predefinedGroup, predefinedMessage and draft are owner A's.
func (w *walk) reader(kind string) int64 {
	return w.sql(`INSERT INTO readers (account_id, kind, title, line, keywords, reply, answer) VALUES ($1, $2, 'منشی', '3000', '{کد}', 'سلام', '1')
		RETURNING id`, w.accA, kind)
}

// inboxMessage is a message owner A received.
func (w *walk) inboxMessage() int64 {
	return w.sql(`INSERT INTO inbox (account_id, line, sender, text, stream_id) VALUES ($1, '3000', '989121234567', 'سلام', 'walk-' || $2::int)
		RETURNING id`, w.accA, w.next())
}

func (w *walk) gift() int64    { return w.reader("gift") }
func (w *walk) contest() int64 { return w.reader("contest") }

func readerForm(id int64) any {
	return map[string]any{"id": id, "kind": "gift", "title": "هدیه", "line": "3000", "keywords": []string{"کد"}, "reply": "سلام"}
}

func (w *walk) predefinedGroup() int64 {
	return w.sql(`INSERT INTO predefined_groups (account_id, title) VALUES ($1, 'گروه ' || $2::int) RETURNING id`, w.accA, w.next())
}

func (w *walk) predefinedMessage() int64 {
	return w.sql(`INSERT INTO predefined_messages (account_id, group_id, title, text) VALUES ($1, $2, 'پیام', 'سلام') RETURNING id`,
		w.accA, w.predefinedGroup())
}

// trackedLink is owner A's (whose plan allows link tracking).
func (w *walk) trackedLink() int64 {
	w.sql(`UPDATE accounts SET link_tracking = true WHERE id = $1 RETURNING id`, w.accA)
	return w.sql(`INSERT INTO tracked_links (account_id, title, url) VALUES ($1, 'لینک', 'https://example.com') RETURNING id`, w.accA)
}

func (w *walk) draft() int64 {
	return w.sql(`INSERT INTO drafts (account_id, type, text) VALUES ($1, 'quick', 'سلام') RETURNING id`, w.accA)
}

func (w *walk) role() int64 {
	return makeRole(w.t, w.e, w.tokA, fmt.Sprint("نقش آزمون ", w.next()), acl.ReportView)
}

func (w *walk) colleague() int64 {
	return inviteColleague(w.t, w.e, w.tokA, fmt.Sprintf("0912126%04d", w.next()), w.role()).ID
}

func (w *walk) phonebook() int64 {
	var b struct{ ID int64 }
	w.e.Must(201, "POST", "/v1/api/phonebooks", map[string]any{"name": fmt.Sprint("دفترچه ", w.next())}, w.tokA).Decode(w.t, &b)
	return b.ID
}

func (w *walk) contact() int64 {
	book := w.phonebook()
	w.e.Must(201, "POST", "/v1/api/phonebooks/numbers/add-list-new", map[string]any{"phonebook_id": book,
		"contacts": []map[string]any{{"number": "09121238888"}}}, w.tokA)
	return w.sql(`SELECT id FROM contacts WHERE phonebook_id = $1`, book)
}

func (w *walk) file() int64 {
	return fileFixture(w.t, w.e, w.accA, "contacts", "ready", []string{"موبایل"}, [][]string{{"09121237777"}})
}

func (w *walk) importCall() call {
	return call{"/phonebooks/numbers/import", map[string]any{"file_id": w.file(), "phonebook_id": w.phonebook()}}
}

func (w *walk) colleagueUpdate() call {
	return call{"/user/partner/update", map[string]any{"id": w.colleague(), "name": "نام نو",
		"national_id": nationalID("001234567"), "role_id": w.role()}}
}

func (w *walk) contactImport() int64 {
	return w.sql(`INSERT INTO contact_imports (account_id, phonebook_id, file_id) VALUES ($1, $2, $3) RETURNING id`,
		w.accA, w.phonebook(), w.file())
}

func (w *walk) campaign() int64 {
	return w.sql(`INSERT INTO campaigns (account_id, title, request, schedule, enabled) VALUES ($1, 'آزمون', '{}', '{}', false) RETURNING id`, w.accA)
}

func (w *walk) send() int64 {
	return w.sql(`INSERT INTO sends (account_id, type, sender, text, status, requested, recipients, parts, total_parts,
		quote, cost, expanded_at) VALUES ($1, 'quick', '3000', 'سلام', 'sending', 1, 1, 1, 1, 0, 0, now()) RETURNING id`, w.accA)
}

// pattern is a pattern of owner A with one pending version.
func (w *walk) pattern() int64 {
	id := w.sql(`INSERT INTO patterns (account_id, code, kind) VALUES ($1, 'walk' || $2::int, 'normal') RETURNING id`, w.accA, w.next())
	w.sql(`WITH v AS (INSERT INTO pattern_versions (pattern_id, version, title, text, variables, kind)
		VALUES ($1, 1, 'آزمون', 'کد %code%', '[{"name":"code","type":"integer","length":6}]', 'normal') RETURNING id)
		UPDATE patterns SET latest_version_id = v.id FROM v WHERE patterns.id = $1 RETURNING patterns.id`, id)
	return id
}

// systemicPattern is the platform's login code pattern (migration 0027).
func (w *walk) systemicPattern() int64 {
	return w.sql(`SELECT id FROM patterns WHERE code = 'login-otp'`)
}
