package httpapi

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/devdocs"
	"github.com/chapar/chapar/pkg/inbox"
	"github.com/chapar/chapar/pkg/report"
	"github.com/chapar/chapar/pkg/send"
	"github.com/chapar/chapar/pkg/validate"
)

// simplePath is the HTTP-GET send for legacy systems: the one route that takes its
// API key from the query (?apikey=), never logged (the access log writes the path only).
const simplePath = "/v1/api/send/simple"

// developerRoutes lists the developers' platform routes (docs/developers.md): the
// send status lookup, the HTTP-GET send, the received messages since an id, the
// OpenAPI document, the plugins, the client libraries and their downloads (public: they
// hold no secret).
func (s *Server) developerRoutes() []Route {
	return []Route{
		{http.MethodGet, "/send/status", acl.ReportView, s.sendStatus},
		{http.MethodGet, "/send/simple", acl.SendCreate, s.simpleSend},
		{http.MethodGet, "/inbox/since", acl.ReportView, s.inboxSince},
		{http.MethodGet, "/openapi.json", acl.Public, s.openAPIDocument},
		{http.MethodGet, "/panel/api-docs", acl.Authenticated, s.apiDocs},
		{http.MethodGet, "/panel/plugins", acl.Authenticated, s.plugins},
		{http.MethodGet, "/plugins/:id/download", acl.Public, s.pluginDownload},
		{http.MethodGet, "/panel/libraries", acl.Authenticated, s.libraries},
		{http.MethodGet, "/sdk/:id/download", acl.Public, s.libraryDownload},
	}
}

// publicAPI is the public set: the routes an integration calls with an API key,
// exactly those the OpenAPI document describes (TestOpenAPIMatchesRouter).
var publicAPI = []string{
	"POST /send", "POST /send/calculate-price", "POST /send/cancel", "GET /send/status", "GET /send/simple",
	"GET /patterns", "POST /patterns", "POST /patterns/send", "GET /inbox/since",
	"GET /payment/credit/mine", "GET /number/numbers",
	"GET /report/new_list", "GET /report/bulk_stats", "GET /report/recipients",
	"POST /phonebooks", "GET /phonebooks/list-new", "POST /phonebooks/numbers/add-list-new",
	"GET /phonebooks/blacklist", "POST /phonebooks/blacklist",
	"GET /openapi.json",
}

// PublicAPI returns the public set as "METHOD /v1/api/path" (gin's :param syntax).
func PublicAPI() []string {
	out := make([]string, len(publicAPI))
	for i, r := range publicAPI {
		m, p, _ := strings.Cut(r, " ")
		out[i] = m + " /v1/api" + p
	}
	return out
}

// openAPIDocument answers the document as is (not in the envelope), as OpenAPI tools
// expect; the panel's /panel/api-docs carries it in the envelope's data.
func (s *Server) openAPIDocument(c *gin.Context) {
	c.Header("Cache-Control", "public, max-age=300")
	c.Data(http.StatusOK, "application/json; charset=utf-8", devdocs.OpenAPI())
}

// apiDocs is the OpenAPI document in the envelope's data, for the panel.
func (s *Server) apiDocs(c *gin.Context) { OK(c, json.RawMessage(devdocs.OpenAPI())) }

// plugins is the plugins catalogue.
func (s *Server) plugins(c *gin.Context) { OK(c, devdocs.Plugins()) }

// pluginDownload is GET /plugins/:id/download: a plugin's zip (the WordPress plugin,
// docs/wordpress.md); 404 for a plugin without one.
func (s *Server) pluginDownload(c *gin.Context) { sendArchive(c, devdocs.PluginArchive) }

// libraries is the client libraries' catalogue (docs/sdk.md).
func (s *Server) libraries(c *gin.Context) { OK(c, devdocs.Libraries()) }

// libraryDownload is GET /sdk/:id/download: a client library's zip; 404 for an
// unknown one.
func (s *Server) libraryDownload(c *gin.Context) { sendArchive(c, devdocs.LibraryArchive) }

// sendArchive answers with the zip archive(:id) names, or 404.
func sendArchive(c *gin.Context, archive func(string) (devdocs.Archive, error)) {
	a, err := archive(c.Param("id"))
	if errors.Is(err, devdocs.ErrNoArchive) {
		err = apperr.New(apperr.NotFound, apperr.MsgNotFound)
	}
	if err != nil {
		Fail(c, err)
		return
	}
	startDownload(c, "application/zip", a.Name)
	_, _ = c.Writer.Write(a.Data)
}

// sendStatus is GET /send/status?id= or ?local_id=: one send of the account by our
// id or the client's own, in the bulk_stats shape plus local_id; with &mobile= it
// also carries that recipient's status (the status of one message).
func (s *Server) sendStatus(c *gin.Context) {
	l, mobile, err := statusQuery(c)
	if err != nil {
		Fail(c, err)
		return
	}
	ctx, acc := c.Request.Context(), who(c).AccountID
	id, local, err := s.Sends.Resolve(ctx, acc, l)
	if err != nil {
		Fail(c, err)
		return
	}
	out := struct {
		report.Stats
		LocalID   string            `json:"local_id"`
		Recipient *report.Recipient `json:"recipient,omitempty"`
	}{LocalID: local}
	if mobile != "" {
		r, err := s.Reports.RecipientOf(ctx, acc, id, mobile)
		if err != nil {
			Fail(c, err)
			return
		}
		out.Recipient = &r
	}
	out.Stats, err = s.Reports.Stats(ctx, acc, id)
	reply(c, out, err)
}

// statusQuery reads the send (id or local_id) and the optional mobile of GET /send/status.
func statusQuery(c *gin.Context) (send.Lookup, string, error) {
	l := send.Lookup{LocalID: strings.TrimSpace(c.Query("local_id"))}
	if raw := c.Query("id"); raw != "" {
		id, err := report.ParseID(raw)
		if err != nil {
			return l, "", err
		}
		l.ID = id
	}
	raw := strings.TrimSpace(c.Query("mobile"))
	if raw == "" {
		return l, "", nil
	}
	mobile, ok := validate.NormalizeMobile(raw)
	if !ok {
		return l, "", apperr.Field("mobile", send.MsgBadNumbers)
	}
	return l, mobile, nil
}

// inboxSince is GET /inbox/since?after_id=&limit=: the account's received messages
// after an id, oldest first (an integration polls with the last id it read).
func (s *Server) inboxSince(c *gin.Context) {
	q, err := inbox.ParseSince(c.Request.URL.Query())
	if err != nil {
		Fail(c, err)
		return
	}
	ms, err := s.Inbox.Since(c.Request.Context(), who(c).AccountID, q)
	reply(c, ms, err)
}

// simpleSend is GET /send/simple?apikey=&to=&text=&from=[&local_id=][&format=text]:
// a quick send for systems that can only open a URL. `to` takes numbers separated
// by commas; format=text answers one plain-text line instead of the envelope.
func (s *Server) simpleSend(c *gin.Context) {
	in := send.Request{Type: send.TypeQuick, Sender: validate.ToLatinDigits(c.Query("from")), Text: c.Query("text"),
		LocalID: c.Query("local_id")}
	for _, n := range strings.FieldsFunc(c.Query("to"), func(r rune) bool { return r == ',' || r == '،' || r == ' ' }) {
		in.Numbers = append(in.Numbers, n)
	}
	s.acceptSend(c, in)
}

// plainText reports a /send/simple call that asked for format=text.
func plainText(c *gin.Context) bool {
	return c.FullPath() == simplePath && c.Query("format") == "text"
}

// textLine is a /send/simple answer in plain text: the send id, or
// "ERROR <status> <message_code>: <message>".
func textLine(data any, m Meta) string {
	if a, ok := data.(send.Accepted); ok && m.Status < 300 {
		return strconv.FormatInt(a.ID, 10)
	}
	return fmt.Sprintf("ERROR %d %s: %s", m.Status, m.MessageCode, m.Message)
}
