package httpapi

import (
	"github.com/gin-gonic/gin"

	"github.com/chapar/chapar/pkg/acl"
)

func (s *Server) permissionList(c *gin.Context) {
	out := make([]gin.H, 0, len(acl.All))
	for _, p := range acl.All {
		out = append(out, gin.H{"key": p, "title": acl.Titles[p]})
	}
	OK(c, out)
}
