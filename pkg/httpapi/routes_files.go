package httpapi

import (
	"net/http"

	"github.com/chapar/chapar/pkg/acl"
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
