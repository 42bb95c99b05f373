package httpapi

import (
	"github.com/gin-gonic/gin"

	"github.com/chapar/chapar/pkg/auditlog"
)

// auditOptions is GET /user/audit/options: the action codes and users to filter by.
func auditOptions(svc *auditlog.Service) gin.HandlerFunc {
	return func(c *gin.Context) {
		out, err := svc.Options(c.Request.Context(), who(c).AccountID)
		reply(c, out, err)
	}
}
