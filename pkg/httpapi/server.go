// Package httpapi is the REST API of cmd/api: the route table (every route declares
// its permission), middleware (request id, panic recovery, access log, auth), the
// one place that maps errors to the response envelope, thin handlers that bind,
// call a domain service and respond, and the embedded panel with SPA fallback.
package httpapi

import (
	"context"
	"io/fs"
	"log/slog"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/chapar/chapar/pkg/auditlog"
	"github.com/chapar/chapar/pkg/bank"
	"github.com/chapar/chapar/pkg/blocklist"
	"github.com/chapar/chapar/pkg/inbound"
	"github.com/chapar/chapar/pkg/inbox"
	"github.com/chapar/chapar/pkg/invoice"
	"github.com/chapar/chapar/pkg/moderation"
	"github.com/chapar/chapar/pkg/onboarding"
	"github.com/chapar/chapar/pkg/predefined"
	"github.com/chapar/chapar/pkg/replay"
	"github.com/chapar/chapar/pkg/rollup"
	"github.com/chapar/chapar/pkg/secretary"
	"github.com/chapar/chapar/pkg/version"
	"github.com/chapar/chapar/pkg/wallet/transactions"

	"github.com/gin-gonic/gin"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/chapar/chapar/pkg/account"
	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apicall"
	"github.com/chapar/chapar/pkg/apikey"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/assistant"
	"github.com/chapar/chapar/pkg/auth"
	"github.com/chapar/chapar/pkg/campaign"
	"github.com/chapar/chapar/pkg/colleague"
	"github.com/chapar/chapar/pkg/config"
	"github.com/chapar/chapar/pkg/content"
	"github.com/chapar/chapar/pkg/line"
	"github.com/chapar/chapar/pkg/links"
	"github.com/chapar/chapar/pkg/live"
	"github.com/chapar/chapar/pkg/operations"
	"github.com/chapar/chapar/pkg/pattern"
	"github.com/chapar/chapar/pkg/payment"
	"github.com/chapar/chapar/pkg/payment/offline"
	"github.com/chapar/chapar/pkg/phonebook"
	"github.com/chapar/chapar/pkg/profile"
	"github.com/chapar/chapar/pkg/report"
	"github.com/chapar/chapar/pkg/review"
	"github.com/chapar/chapar/pkg/send"
	"github.com/chapar/chapar/pkg/staff"
	"github.com/chapar/chapar/pkg/support"
	"github.com/chapar/chapar/pkg/upload"
	"github.com/chapar/chapar/pkg/wallet"
	"github.com/chapar/chapar/pkg/webhook"
	"github.com/chapar/chapar/web"
)

// Deps are the services the API calls.
type Deps struct {
	Config   config.Config
	Log      *slog.Logger
	Auth     *auth.Service
	Accounts *account.Service
	Wallet   *wallet.Service
	Lines    *line.Service
	Sends    *send.Service
	Reports  *report.Service
	// Campaigns stores recurring campaigns (the worker runs them).
	Campaigns *campaign.Service
	// Phonebooks owns the contacts, tags, custom features and lists.
	Phonebooks *phonebook.Service
	// Files receives uploads and serves their reports (the worker parses them).
	Files *upload.Service
	// Colleagues owns the access roles and the colleagues (partners).
	Colleagues *colleague.Service
	// Live serves the websockets; its Run must be running.
	Live *live.Hub
	// Payments runs online payments (and serves the sandbox bank's page).
	Payments *payment.Service
	// Offline keeps the card-to-card and bank transfer reports; PayDirectory the
	// platform's card and account they are paid to.
	Offline      *offline.Service
	PayDirectory *offline.Directory
	// Reviews are the back office's review queues; Staff its account administration.
	Reviews *review.Queues
	Staff   *staff.Service
	// Blocklist is the operators' advertising block lists staff import and search.
	Blocklist *blocklist.Service
	// Content is what customers see that staff edit (news, banners, FAQ …).
	Content *content.Service
	// Ready holds the named readiness checks (the database, Redis, an SMPP bind is up).
	Ready map[string]func(context.Context) error
	// Alerts keeps the low-balance alerts (wrapped around the sends' balance listener).
	Alerts *wallet.Alerts
	// APIKeys manages the account's API keys and checks them on /v1/api.
	APIKeys *apikey.Service
	// Patterns owns the patterns, their review and pattern sends.
	Patterns *pattern.Service
	// Webhooks manages the account's webhook endpoints and deliveries.
	Webhooks *webhook.Service
	// CallLog records the API-key calls (nil: off); its Run must be running.
	CallLog *apicall.Recorder
	// Support owns the tickets, suggestions, feedback and FAQ.
	Support *support.Service
	// Links keeps tracked links and serves their redirect; its Run (the click
	// recorder) must be running.
	Links *links.Service
	// Profiles owns the profile, documents, mobile changes, settings and tariffs.
	Profiles *profile.Service
	// Assistant is the AI writing assistant of the message editor and ticket drafts.
	Assistant *assistant.Service
	// Replays keeps the public create routes' answers by Idempotency-Key (nil: off).
	Replays *replay.Store
	// Operations is the back office's live view of binds, queues and throughput.
	Operations *operations.Service
	// Readers are the services of the lists, logs and pages that only read or
	// keep their own rows (built once, in Wire).
	Readers
	// Metrics is the registry of the request metrics (metrics.go; nil: they are
	// kept but not registered). Serve it on a port of its own, not here.
	Metrics prometheus.Registerer
}

// Readers are the domain services of the route tables that need nothing but the
// stores: the audit log, the number bank, the dashboard, the inbox, invoices,
// predefined messages, the secretaries, the transactions, the API-call log, the
// inbound quarantine and the moderation rules.
type Readers struct {
	AuditLog     *auditlog.Service
	Bank         *bank.Service
	Charts       *rollup.Reader
	FirstSteps   *onboarding.Service
	Inbox        *inbox.Service
	Invoices     *invoice.Service
	Predefined   *predefined.Service
	Secretaries  *secretary.Service
	Transactions *transactions.Service
	APICalls     *apicall.Service
	Quarantine   *inbound.Quarantine
	Moderation   *moderation.Editor
}

// Server holds the dependencies of the handlers.
type Server struct {
	Deps
}

// New builds the Gin engine with every route.
func New(d Deps) *gin.Engine {
	gin.SetMode(gin.ReleaseMode)
	s := &Server{Deps: d}
	connectLive(d)
	r := gin.New()
	r.HandleMethodNotAllowed = true
	_ = r.SetTrustedProxies(d.Config.TrustedProxies)
	count := newHTTPMetrics(d.Metrics).middleware()
	// The short-link redirect is registered before the middleware: it must answer
	// in well under a millisecond of our own time at a thousand requests a second.
	r.GET("/l/:code", count, recovery(), s.shortLink)
	r.Use(count, securityHeaders(d.Config.TrustedProxies))
	r.Use(requestID(), accessLog(d.Log), recovery(), finishWrites())
	r.Use(limitBody(), cleanInput())

	r.GET("/healthz", s.healthz)
	r.GET("/readyz", s.readyz)
	r.GET("/v1/ws", s.liveSocket)

	api := r.Group("/v1/api")
	for _, rt := range s.routes() {
		// Deadlines are lifted only once the guard has let the request in.
		api.Handle(rt.Method, rt.Path, callLog(d.CallLog), guard(d.Auth, d.APIKeys, rt.Perm),
			streamDeadlines(d.Config.HTTPStreamTimeout), rt.Handle)
	}

	s.mountSandboxBank(r)
	r.NoMethod(methodNotAllowed)
	r.NoRoute(orPanel(panelHandler(d.Config.WebDir)))
	return r
}

// methodNotAllowed answers a known path asked with another method.
func methodNotAllowed(c *gin.Context) {
	c.Abort()
	write(c, http.StatusMethodNotAllowed, nil, Meta{Message: apperr.MsgMethod, MessageCode: "405"})
}

// orPanel answers an unknown path: 404 under /v1/ and for anything but a GET,
// else the panel (a client route).
func orPanel(panel gin.HandlerFunc) gin.HandlerFunc {
	return func(c *gin.Context) {
		p := c.Request.URL.Path
		if strings.HasPrefix(p, "/v1/") || c.Request.Method != http.MethodGet {
			Fail(c, apperr.ErrNotFound)
			return
		}
		panel(c)
	}
}

// Route is one line of the route table.
type Route struct {
	Method string
	Path   string
	Perm   acl.Permission
	Handle gin.HandlerFunc
}

// healthz answers that the process is up, with its version.
func (s *Server) healthz(c *gin.Context) { OK(c, gin.H{"status": "ok", "version": version.Version}) }

// liveSocket is GET /v1/ws?ticket=: the caller's websocket of live events. The ticket
// is its only credential (no session token, no header); errors before the upgrade
// (bad ticket, hub shutting down, too many sockets) get the usual envelope.
// A user whose role or permissions change (or whose sessions end) has their sockets
// closed on every instance (connectLive), so the panel reconnects under the new
// permissions (live.Allowed filters each event by them).
func (s *Server) liveSocket(c *gin.Context) {
	id, err := s.Auth.RedeemTicket(c.Request.Context(), c.Query("ticket"))
	if err == nil {
		c.Set(ctxIdentity, id)
		setDeadlines(c, time.Time{}) // authenticated: it lives without deadlines (it pings instead)
		err = s.Live.Serve(c.Writer, c.Request, id)
	}
	if err != nil {
		Fail(c, err)
	}
}

// readyz runs the readiness checks: 200 when all pass, else 503 naming the failures.
func (s *Server) readyz(c *gin.Context) {
	ctx, cancel := context.WithTimeout(c.Request.Context(), 2*time.Second)
	defer cancel()
	checks := map[string]error{}
	for name, f := range s.Ready {
		checks[name] = f(ctx)
	}
	out := gin.H{}
	ok := true
	for name, err := range checks {
		if err != nil {
			ok = false
			out[name] = err.Error()
		} else {
			out[name] = "ok"
		}
	}
	if !ok {
		c.JSON(http.StatusServiceUnavailable, Envelope{Data: out, Meta: Meta{Status: 503,
			Message: "سرویس آماده نیست", MessageCode: "503", Errors: map[string][]string{}}})
		return
	}
	OK(c, out)
}

// panelHandler serves the built panel, falling back to index.html for client routes.
func panelHandler(dir string) gin.HandlerFunc {
	var files fs.FS
	if dir != "" {
		files = os.DirFS(dir)
	} else {
		files = web.Dist()
	}
	fileServer := http.FileServer(http.FS(files))
	return func(c *gin.Context) {
		p := strings.TrimPrefix(c.Request.URL.Path, "/")
		if p != "" {
			if st, err := fs.Stat(files, p); err == nil && !st.IsDir() {
				if strings.HasPrefix(p, "assets/") {
					c.Header("Cache-Control", "public, max-age=31536000, immutable")
				}
				fileServer.ServeHTTP(c.Writer, c.Request)
				return
			}
		}
		index, err := fs.ReadFile(files, "index.html")
		if err != nil {
			c.Data(http.StatusOK, "text/html; charset=utf-8", []byte(`<!doctype html><html lang="fa" dir="rtl"><meta charset="utf-8"><title>چاپار</title><body style="font-family:sans-serif">پنل هنوز ساخته نشده است؛ <code>make run</code> آن را می‌سازد.</body></html>`))
			return
		}
		c.Header("Cache-Control", "no-cache")
		c.Data(http.StatusOK, "text/html; charset=utf-8", index)
	}
}
