package httpapi

import (
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"path/filepath"

	"github.com/gin-gonic/gin"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/spreadsheet"
	"github.com/chapar/chapar/pkg/support"
	"github.com/chapar/chapar/pkg/upload"
)

// fileRoutes lists the upload and file routes.
func (s *Server) fileRoutes() []Route {
	return []Route{
		// Files (spec §7 Files; api-contract "Files and bulk sources").
		{http.MethodPost, "/user/files", acl.FileManage, s.uploadFile},
		{http.MethodGet, "/user/files", acl.FileManage, s.listFiles},
		{http.MethodGet, "/user/files/categories", acl.FileManage, s.fileCategories},
		{http.MethodGet, "/user/files/samples/:purpose", acl.FileManage, s.fileSample},
		{http.MethodPost, "/user/files/delete", acl.FileManage, s.deleteFile},
		{http.MethodGet, "/user/files/:id", acl.FileManage, s.getFile},
		{http.MethodGet, "/user/files/:id/download", acl.FileManage, s.downloadFile},
		{http.MethodGet, "/user/files/:id/errors/download", acl.FileManage, s.downloadFileErrors},
	}
}

// The file handlers (api-contract "Files and bulk sources"): upload, the pre-flight
// report, the list, downloads and samples.

// uploadFile is POST /user/files (multipart: file, purpose). The body streams to
// storage; parsing happens in the worker.
func (s *Server) uploadFile(c *gin.Context) {
	out, err := s.Files.Receive(c.Request.Context(), who(c), upload.Upload{Body: c.Request.Body,
		ContentType: c.GetHeader("Content-Type"), Purpose: c.Query("purpose"), IP: c.ClientIP()})
	if err != nil {
		Fail(c, err)
		return
	}
	Created(c, out)
}

// listFiles is GET /user/files?page=&limit=&category=: every file of the account
// (uploads, receipts and any registered category), newest first.
func (s *Server) listFiles(c *gin.Context) {
	q, err := upload.ParseEntryQuery(c.Request.URL.Query())
	if err != nil {
		Fail(c, err)
		return
	}
	rows, total, err := s.Files.Entries(c.Request.Context(), who(c).AccountID, q)
	if err != nil {
		Fail(c, err)
		return
	}
	Paged(c, rows, Page{Page: q.Page, Limit: q.Limit, Total: total})
}

// fileCategories is GET /user/files/categories.
func (s *Server) fileCategories(c *gin.Context) { OK(c, upload.Categories()) }

// getFile is GET /user/files/{id}: the state and the pre-flight report.
func (s *Server) getFile(c *gin.Context) {
	id, err := upload.ParseID(c.Param("id"))
	if err != nil {
		Fail(c, err)
		return
	}
	f, err := s.Files.Get(c.Request.Context(), who(c).AccountID, id)
	if err != nil {
		Fail(c, err)
		return
	}
	OK(c, f)
}

// deleteFile is POST /user/files/delete {"id", "category"}: only uploads are
// deleted; a receipt is a transaction's record.
func (s *Server) deleteFile(c *gin.Context) {
	var in struct {
		ID       flexID `json:"id"`
		Category string `json:"category"`
	}
	if !bind(c, &in) {
		return
	}
	if in.Category == upload.CategoryReceipt {
		Fail(c, apperr.New(apperr.Conflict, upload.MsgNotDeletable).WithCode("file-not-deletable"))
		return
	}
	if err := s.Files.Delete(c.Request.Context(), who(c), int64(in.ID), c.ClientIP()); err != nil {
		Fail(c, err)
		return
	}
	OK(c, gin.H{"id": int64(in.ID)})
}

// downloadFile is GET /user/files/{id}/download[?category=receipt]: the original
// as uploaded.
func (s *Server) downloadFile(c *gin.Context) {
	id, err := upload.ParseID(c.Param("id"))
	if err != nil {
		Fail(c, err)
		return
	}
	rc, name, err := s.openFile(c, id, c.Query("category"))
	if err != nil {
		Fail(c, err)
		return
	}
	defer rc.Close()
	ctype := mime.TypeByExtension(filepath.Ext(name))
	if filepath.Ext(name) == ".xlsx" {
		ctype = spreadsheet.ContentType
	}
	if ctype == "" {
		ctype = "application/octet-stream"
	}
	startDownload(c, ctype, name)
	if _, err := io.Copy(c.Writer, rc); err != nil {
		slog.WarnContext(c.Request.Context(), "file download broke off", "file", id, "err", err)
	}
}

// openFile opens one of the caller's files of a category (default: uploads).
func (s *Server) openFile(c *gin.Context, id int64, category string) (io.ReadCloser, string, error) {
	switch category {
	case upload.CategoryReceipt:
	case support.CategoryAttachment:
		a, rc, err := s.Support.OpenAttachment(c.Request.Context(), who(c), id)
		return rc, a.Name, err
	default:
		return s.Files.Original(c.Request.Context(), who(c).AccountID, id)
	}
	p, rc, err := s.Offline.Receipt(c.Request.Context(), id)
	if err != nil {
		return nil, "", err
	}
	if p.AccountID != who(c).AccountID {
		rc.Close()
		return nil, "", apperr.ErrNotFound
	}
	name := p.ReceiptName
	if name == "" {
		name = fmt.Sprintf("receipt-%d", id)
	}
	return rc, name, nil
}

// downloadFileErrors is GET /user/files/{id}/errors/download: the row errors as xlsx.
func (s *Server) downloadFileErrors(c *gin.Context) {
	id, err := upload.ParseID(c.Param("id"))
	if err != nil {
		Fail(c, err)
		return
	}
	xlsxDownload(c, fmt.Sprintf("file-%d-errors.xlsx", id), func(w io.Writer) error {
		return s.Files.WriteErrorsXLSX(c.Request.Context(), who(c).AccountID, id, w)
	})
}

// fileSample is GET /user/files/samples/{purpose}: send, peer_to_peer, keyword or contacts.
func (s *Server) fileSample(c *gin.Context) {
	p := c.Param("purpose")
	xlsxDownload(c, "sample-"+p+".xlsx", func(w io.Writer) error { return upload.WriteSample(p, w) })
}
