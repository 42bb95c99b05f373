package httpapi

import (
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
)

// Messages of a refused action in an impersonated session.
const (
	MsgImpersonationRefused  = "این کار در ورود پشتیبان به حساب مشتری مجاز نیست؛ تغییر رمز، ورود دومرحله‌ای، کلیدهای API، موبایل و دعوت همکاران فقط با ورود خود مشتری انجام می‌شود"
	CodeImpersonationRefused = "impersonation-refused"
)

// credentialRoutes are the routes that change how anyone signs in or authenticates
// (password, two-step login, API keys, login links, the mobile, colleagues'
// invitations): a staff member inside a customer's panel (impersonation) may not use
// them. Keys are "METHOD path" under /v1/api.
var credentialRoutes = map[string]bool{
	"POST /acl/auth/external_login/issue":         true,
	"POST /user/change_password":                  true,
	"GET /user/2fa/show_qr":                       true,
	"POST /user/2fa/enable":                       true,
	"POST /user/2fa/disable":                      true,
	"POST /acl/api_key/otp":                       true,
	"POST /acl/api_key/create":                    true,
	"DELETE /acl/api_key":                         true,
	"POST /user/change_mobile/request_change_otp": true,
	"POST /user/change_mobile/confirm_change_otp": true,
	"POST /user/change_mobile/confirm_new_mobile": true,
	"POST /user/change_mobile/cancel":             true,
	"POST /user/partner/create":                   true,
	"POST /user/partner/resend_invite":            true,
}

// impersonationRefuses reports whether the impersonated caller id may not use the
// route of c, with the error to answer.
func impersonationRefuses(c *gin.Context, id acl.Identity) error {
	if id.ImpersonatorID == 0 {
		return nil
	}
	path := strings.TrimPrefix(c.FullPath(), "/v1/api")
	if credentialRoutes[c.Request.Method+" "+path] {
		return apperr.New(apperr.Forbidden, MsgImpersonationRefused).WithCode(CodeImpersonationRefused)
	}
	return nil
}
