package httpapi

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apikey"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/audit"
	"github.com/chapar/chapar/pkg/auth"
)

const (
	ctxRequestID = "request_id"
	ctxIdentity  = "identity"
	ctxToken     = "token"
	ctxSandbox   = "sandbox" // a sandbox API key's request: its answers are marked
)

// requestID takes X-Request-ID from the client or makes one, and echoes it.
func requestID() gin.HandlerFunc {
	return func(c *gin.Context) {
		id := c.GetHeader("X-Request-ID")
		if id == "" || len(id) > 64 {
			b := make([]byte, 8)
			_, _ = rand.Read(b)
			id = hex.EncodeToString(b)
		}
		c.Set(ctxRequestID, id)
		c.Header("X-Request-ID", id)
		c.Next()
	}
}

// writeGrace bounds how long a change goes on after its client has gone.
const writeGrace = 2 * time.Minute

// finishWrites lets a change the client sent run to its end when the client goes
// away mid-request (a reload, a closed tab, a dropped phone link): its context
// keeps the request's values but not its cancellation, bounded by writeGrace.
// Reads still stop with their client.
func finishWrites() gin.HandlerFunc {
	return func(c *gin.Context) {
		switch c.Request.Method {
		case http.MethodGet, http.MethodHead, http.MethodOptions:
			c.Next()
			return
		}
		ctx, cancel := context.WithTimeout(context.WithoutCancel(c.Request.Context()), writeGrace)
		defer cancel()
		c.Request = c.Request.WithContext(ctx)
		c.Next()
	}
}

// recovery turns a panic into a 500 envelope.
func recovery() gin.HandlerFunc {
	return func(c *gin.Context) {
		defer func() {
			if r := recover(); r != nil {
				if r == http.ErrAbortHandler {
					panic(r)
				}
				Fail(c, fmt.Errorf("panic: %v", r))
			}
		}()
		c.Next()
	}
}

// accessLog writes one structured line per request.
func accessLog(log *slog.Logger) gin.HandlerFunc {
	return func(c *gin.Context) {
		start := time.Now()
		c.Next()
		attrs := []any{
			"method", c.Request.Method, "path", c.Request.URL.Path, "status", c.Writer.Status(),
			"ms", float64(time.Since(start).Microseconds()) / 1000, "ip", c.ClientIP(),
			"request_id", c.GetString(ctxRequestID),
		}
		if id, ok := identity(c); ok {
			attrs = append(attrs, "account", id.AccountID, "user", id.UserID)
			if id.APIKeyID != 0 {
				attrs = append(attrs, "api_key", id.APIKeyID) // the key's id, never the key
			}
		}
		level := slog.LevelInfo
		if c.Writer.Status() >= 500 {
			level = slog.LevelError
		}
		log.Log(c.Request.Context(), level, "http", attrs...)
	}
}

// guard enforces a route's permission: a valid session token or API key for
// everything but Public, then the role (or the key's scopes) check.
func guard(a *auth.Service, keys *apikey.Service, perm acl.Permission) gin.HandlerFunc {
	return func(c *gin.Context) {
		c.Request = c.Request.WithContext(audit.WithClient(c.Request.Context(), c.ClientIP(), c.Request.UserAgent()))
		if perm == acl.Public {
			c.Next()
			return
		}
		token := bearer(c)
		var id acl.Identity
		var err error
		if apikey.Looks(token) && keys != nil {
			id, err = keyIdentity(c, keys, token)
		} else {
			id, err = a.Authenticate(c.Request.Context(), token)
		}
		if err == nil {
			err = staffGate(id, perm)
		}
		if err == nil {
			err = impersonationRefuses(c, id)
		}
		if err != nil {
			Fail(c, hideStaff(perm, err))
			return
		}
		c.Set(ctxIdentity, id) // known from here on, so a refused API-key call is logged too
		if !id.Can(perm) {
			Fail(c, apperr.ErrForbidden)
			return
		}
		c.Set(ctxToken, token)
		c.Request = c.Request.WithContext(audit.WithIdentity(c.Request.Context(), id))
		c.Next()
	}
}

// bearer reads the session token or API key from the Authorization header, or an API
// key from the apikey header (as Iranian APIs do): never from the URL (?token=),
// where it would land in logs and histories (the websocket uses a single-use ticket).
func bearer(c *gin.Context) string {
	h := c.GetHeader("Authorization")
	if t, ok := strings.CutPrefix(h, "Bearer "); ok {
		return strings.TrimSpace(t)
	}
	if k := strings.TrimSpace(c.GetHeader("apikey")); k != "" || c.FullPath() != simplePath {
		return k
	}
	if k := strings.TrimSpace(c.Query("apikey")); apikey.Looks(k) {
		return k // the HTTP-GET send only, and only an API key (never a session token)
	}
	return ""
}

// keyIdentity checks an API key (allow-list first, then expiry) and counts the
// request against the key's rate limit, answering the X-RateLimit-* headers.
func keyIdentity(c *gin.Context, keys *apikey.Service, key string) (acl.Identity, error) {
	id, err := keys.Authenticate(c.Request.Context(), key, c.ClientIP())
	if err != nil {
		return id, err
	}
	c.Set(ctxSandbox, id.Sandbox)
	q, err := keys.Allow(c.Request.Context(), id.APIKeyID)
	if q.Limit > 0 {
		c.Header("X-RateLimit-Limit", strconv.Itoa(q.Limit))
		c.Header("X-RateLimit-Remaining", strconv.Itoa(q.Remaining))
		c.Header("X-RateLimit-Reset", strconv.Itoa(int(q.Reset.Seconds()+0.999)))
	}
	return id, err
}

func identity(c *gin.Context) (acl.Identity, bool) {
	v, ok := c.Get(ctxIdentity)
	if !ok {
		return acl.Identity{}, false
	}
	id, ok := v.(acl.Identity)
	return id, ok
}

// who returns the caller's identity on a guarded route.
func who(c *gin.Context) acl.Identity {
	id, _ := identity(c)
	return id
}

func client(c *gin.Context) auth.Client {
	return auth.Client{IP: c.ClientIP(), UserAgent: c.Request.UserAgent()}
}
