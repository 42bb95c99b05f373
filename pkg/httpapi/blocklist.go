package httpapi

import (
	"errors"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/upload"
)

// BlocklistBodyLimit bounds an import of the operators' block lists: the file
// (at most an upload's size) and the operator field.
const BlocklistBodyLimit = upload.DefaultMaxBytes + 64<<10

// blocklistRoutes lists the back office's operator advertising block lists
// (docs/sending-rules.md, «Operator block lists»).
func (s *Server) blocklistRoutes() []Route {
	return []Route{
		{http.MethodGet, "/admin/operator-blocklist", acl.Staff, s.blocklistCounts},
		{http.MethodGet, "/admin/operator-blocklist/search", acl.Staff, s.blocklistSearch},
		{http.MethodPost, "/admin/operator-blocklist/import", acl.Staff, s.blocklistImport},
		{http.MethodPost, "/admin/operator-blocklist/delete", acl.Staff, s.blocklistRemove},
	}
}

func (s *Server) blocklistCounts(c *gin.Context) {
	v, err := s.Blocklist.Counts(c.Request.Context())
	reply(c, v, err)
}

func (s *Server) blocklistSearch(c *gin.Context) {
	v, err := s.Blocklist.Search(c.Request.Context(), c.Query("mobile"))
	reply(c, v, err)
}

func (s *Server) blocklistRemove(c *gin.Context) {
	var in struct {
		Mobile   string `json:"mobile"`
		Operator string `json:"operator"`
	}
	if !bind(c, &in) {
		return
	}
	err := s.Blocklist.Remove(c.Request.Context(), who(c), in.Mobile, in.Operator, c.ClientIP())
	reply(c, in, err)
}

// blocklistImport is POST /admin/operator-blocklist/import (multipart: file, and
// operator, empty for the operator of each number's prefix).
func (s *Server) blocklistImport(c *gin.Context) {
	path, name, op, err := receiveImport(c.Request)
	if err != nil {
		Fail(c, err)
		return
	}
	defer func() { _ = os.Remove(path) }()
	v, err := s.Blocklist.Import(c.Request.Context(), who(c), path, name, op, c.ClientIP())
	reply(c, v, err)
}

// receiveImport streams the form's file to a temporary file and reads its operator.
func receiveImport(r *http.Request) (path, name, op string, err error) {
	mr, err := r.MultipartReader()
	if err != nil {
		return "", "", "", apperr.Field("file", upload.MsgNotMultipart)
	}
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return cleanup(path, badForm(err))
		}
		switch part.FormName() {
		case "operator":
			b, err := io.ReadAll(io.LimitReader(part, 64))
			if err != nil {
				return cleanup(path, badForm(err))
			}
			op = strings.TrimSpace(string(b))
		case "file":
			if path != "" {
				continue
			}
			name = part.FileName()
			if path, err = spool(part); err != nil {
				return cleanup(path, err)
			}
		}
	}
	if path == "" {
		return "", "", "", apperr.Field("file", upload.MsgNoFile)
	}
	return path, name, op, nil
}

// spool copies a form file to a temporary file.
func spool(part *multipart.Part) (string, error) {
	f, err := os.CreateTemp("", "blocklist-*")
	if err != nil {
		return "", err
	}
	defer f.Close()
	n, err := io.Copy(f, part)
	if err != nil {
		return f.Name(), badForm(err)
	}
	if n == 0 {
		return f.Name(), apperr.Field("file", upload.MsgEmpty)
	}
	return f.Name(), nil
}

// cleanup removes a spooled file and returns err.
func cleanup(path string, err error) (string, string, string, error) {
	if path != "" {
		_ = os.Remove(path)
	}
	return "", "", "", err
}
