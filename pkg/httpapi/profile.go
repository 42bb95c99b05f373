package httpapi

import (
	"io"
	"log/slog"
	"net/http"
	"strconv"

	"github.com/gin-gonic/gin"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/auth"
	"github.com/chapar/chapar/pkg/profile"
)

// ProfileUploadLimit bounds a logo or document upload: the largest document and its
// form fields (a larger image reaches the service and is refused with its message).
const ProfileUploadLimit int64 = profile.MaxDocument + 64<<10

// profileRoutes lists the profile, security settings, documents, mobile change,
// tariffs, settings and plan routes (spec §7 Account and Documents; docs/profile.md).
func (s *Server) profileRoutes() []Route {
	p := s.Profiles
	return []Route{
		{http.MethodGet, "/user/show_profile", acl.Authenticated, byCaller(p.Get)},
		{http.MethodPost, "/user/update_profile", acl.ProfileManage, s.updateProfile},
		{http.MethodPost, "/user/profile/logo", acl.ProfileManage, s.uploadLogo},
		{http.MethodGet, "/user/profile/logo", acl.Authenticated, s.showLogo},
		{http.MethodGet, "/user/documents", acl.ProfileManage, s.documents},
		{http.MethodPost, "/user/documents/upload", acl.ProfileManage, s.uploadDocument},
		{http.MethodPost, "/user/documents/remove", acl.ProfileManage, s.removeDocument},
		{http.MethodGet, "/user/documents/:id/file", acl.ProfileManage, s.documentFile(false)},
		{http.MethodGet, "/admin/documents/:id/file", acl.Staff, s.documentFile(true)},
		{http.MethodGet, "/user/get_tariff", acl.WalletView, byAccount(p.Tariffs)},
		{http.MethodPost, "/user/get_tariff/calculate", acl.WalletView, s.calculateTariff},
		{http.MethodGet, "/user/setting", acl.ProfileManage, byAccount(p.Settings)},
		{http.MethodPost, "/user/setting", acl.ProfileManage, s.saveSettings},
		{http.MethodGet, "/user/plan", acl.Authenticated, byAccount(p.PlanInfo)},
	}
}

// securityRoutes lists the signed-in user's own security routes: password, sessions
// and the mobile change (the two-step settings are in authRoutes).
func (s *Server) securityRoutes() []Route {
	return []Route{
		{http.MethodPost, "/user/change_password", acl.Authenticated, s.changePassword},
		{http.MethodGet, "/user/sessions", acl.Authenticated, byCaller(s.Auth.Sessions)},
		{http.MethodPost, "/user/sessions/:id/revoke", acl.Authenticated, s.revokeSession},
		{http.MethodPost, "/user/sessions/revoke_all", acl.Authenticated, s.revokeAllSessions},
		{http.MethodGet, "/user/change_mobile", acl.Authenticated, byCaller(s.Profiles.CurrentChange)},
		{http.MethodPost, "/user/change_mobile/request_change_otp", acl.Authenticated, s.requestMobileChange},
		{http.MethodPost, "/user/change_mobile/confirm_change_otp", acl.Authenticated, s.confirmOldMobile},
		{http.MethodPost, "/user/change_mobile/confirm_new_mobile", acl.Authenticated, s.confirmNewMobile},
		{http.MethodPost, "/user/change_mobile/cancel", acl.Authenticated, s.cancelMobileChange},
	}
}

func (s *Server) updateProfile(c *gin.Context) {
	var in profile.UpdateInput
	if bind(c, &in) {
		v, err := s.Profiles.Update(c.Request.Context(), who(c), in, c.ClientIP())
		reply(c, v, err)
	}
}

// documents answers the account's documents and the kinds there are.
func (s *Server) documents(c *gin.Context) {
	v, err := s.Profiles.Documents(c.Request.Context(), who(c).AccountID)
	reply(c, gin.H{"documents": v, "kinds": profile.DocumentKinds}, err)
}

func (s *Server) removeDocument(c *gin.Context) {
	var in struct {
		ID int64 `json:"id"`
	}
	if bind(c, &in) {
		replyDone(c, s.Profiles.RemoveDocument(c.Request.Context(), who(c), in.ID, c.ClientIP()))
	}
}

func (s *Server) saveSettings(c *gin.Context) {
	var in profile.Settings
	if bind(c, &in) {
		v, err := s.Profiles.SaveSettings(c.Request.Context(), who(c), in, c.ClientIP())
		reply(c, v, err)
	}
}

func (s *Server) changePassword(c *gin.Context) {
	var in auth.ChangePasswordInput
	if bind(c, &in) {
		replyDone(c, s.Auth.ChangePassword(c.Request.Context(), who(c), in, client(c)))
	}
}

func (s *Server) revokeSession(c *gin.Context) {
	id, err := pathID(c)
	if err == nil {
		err = s.Auth.RevokeSession(c.Request.Context(), who(c), id, client(c))
	}
	replyDone(c, err)
}

// revokeAllSessions ends the user's other sessions, and with include_current this
// one too (the body may be absent).
func (s *Server) revokeAllSessions(c *gin.Context) {
	var in struct {
		IncludeCurrent bool `json:"include_current"`
	}
	if c.Request.ContentLength == 0 || bind(c, &in) {
		replyDone(c, s.Auth.LogoutEverywhere(c.Request.Context(), who(c), in.IncludeCurrent, client(c)))
	}
}

func (s *Server) requestMobileChange(c *gin.Context) {
	v, err := s.Profiles.RequestChange(c.Request.Context(), who(c), client(c))
	reply(c, v, err)
}

func (s *Server) cancelMobileChange(c *gin.Context) {
	replyDone(c, s.Profiles.CancelChange(c.Request.Context(), who(c), c.ClientIP()))
}

func (s *Server) confirmOldMobile(c *gin.Context) {
	var in struct {
		OTPToken  string `json:"otp_token"`
		Code      string `json:"code"`
		NewMobile string `json:"new_mobile"`
	}
	if bind(c, &in) {
		v, err := s.Profiles.ConfirmOld(c.Request.Context(), who(c), in.OTPToken, in.Code, in.NewMobile, client(c))
		reply(c, v, err)
	}
}

func (s *Server) confirmNewMobile(c *gin.Context) {
	var in struct {
		ChangeID int64  `json:"change_id"`
		OTPToken string `json:"otp_token"`
		Code     string `json:"code"`
	}
	if bind(c, &in) {
		v, err := s.Profiles.ConfirmNew(c.Request.Context(), who(c), in.ChangeID, in.OTPToken, in.Code, client(c))
		reply(c, v, err)
	}
}

func (s *Server) calculateTariff(c *gin.Context) {
	var in struct {
		Text     string `json:"text"`
		Cancel11 bool   `json:"cancel11"`
		Count    int64  `json:"count"`
	}
	if bind(c, &in) {
		v, err := s.Profiles.Calculate(c.Request.Context(), who(c).AccountID, in.Text, in.Cancel11, in.Count)
		reply(c, v, err)
	}
}

// uploadLogo takes the multipart field "logo".
func (s *Server) uploadLogo(c *gin.Context) {
	withUpload(c, "logo", func(r io.Reader, _ string) {
		replyDone(c, s.Profiles.SetLogo(c.Request.Context(), who(c), r, c.ClientIP()))
	})
}

// uploadDocument takes the multipart fields "kind" and "file".
func (s *Server) uploadDocument(c *gin.Context) {
	withUpload(c, "file", func(r io.Reader, name string) {
		d, err := s.Profiles.UploadDocument(c.Request.Context(), who(c),
			profile.DocumentUpload{Kind: c.PostForm("kind"), File: r, Name: name, IP: c.ClientIP()})
		replyCreated(c, d, err)
	})
}

// withUpload parses a multipart form and hands its file field (nil when absent) on.
func withUpload(c *gin.Context, field string, fn func(r io.Reader, name string)) {
	if err := c.Request.ParseMultipartForm(ProfileUploadLimit); err != nil {
		Fail(c, badForm(err))
		return
	}
	f := c.Request.MultipartForm
	defer func() { _ = f.RemoveAll() }()
	fh := firstFile(f, field)
	if fh == nil {
		fn(nil, "")
		return
	}
	file, err := fh.Open()
	if err != nil {
		Fail(c, err)
		return
	}
	defer file.Close()
	fn(file, fh.Filename)
}

func (s *Server) showLogo(c *gin.Context) {
	rc, err := s.Profiles.Logo(c.Request.Context(), who(c).AccountID)
	if err != nil {
		Fail(c, err)
		return
	}
	defer rc.Close()
	c.Header("Content-Type", "image/png")
	c.Header("Cache-Control", "private, no-cache")
	c.Status(http.StatusOK)
	if _, err := io.Copy(c.Writer, rc); err != nil {
		slog.WarnContext(c.Request.Context(), "logo cut short", "err", err)
	}
}

// documentFile serves a document's file: the account's own, or any for staff.
func (s *Server) documentFile(staff bool) gin.HandlerFunc {
	return func(c *gin.Context) {
		id, err := pathID(c)
		if err != nil {
			Fail(c, err)
			return
		}
		account := who(c).AccountID
		if staff {
			account = 0
		}
		d, rc, err := s.Profiles.DocumentFile(c.Request.Context(), account, id)
		if err != nil {
			Fail(c, err)
			return
		}
		defer rc.Close()
		if err := profile.MayOpen(who(c), d); err != nil && !staff {
			Fail(c, err)
			return
		}
		ext := map[string]string{"image/jpeg": ".jpg", "image/png": ".png", "application/pdf": ".pdf"}[d.FileType]
		startDownload(c, d.FileType, "document-"+strconv.FormatInt(d.ID, 10)+ext)
		if _, err := io.Copy(c.Writer, rc); err != nil {
			slog.WarnContext(c.Request.Context(), "document download cut short", "document", d.ID, "err", err)
		}
	}
}
