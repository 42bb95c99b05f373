package httpapi

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/gin-gonic/gin"

	irangeo "github.com/chapar/chapar/data/iran-geo"
	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/bank"
)

// bankRoutes are the number bank of targeted sends (spec §7 "Sending",
// docs/targeted-sends.md): its places, businesses and towers with their counts,
// the count and price of an audience, and the outlines the map draws.
func (s *Server) bankRoutes() []Route {
	svc := s.Bank
	count := byForm(func(ctx context.Context, id acl.Identity, r bank.CountRequest) (bank.Counts, error) {
		return svc.Count(ctx, id.AccountID, r)
	}, false)
	return []Route{
		{http.MethodPost, "/send/banks/counts", acl.SendCreate, count},
		{http.MethodGet, "/send/banks/provinces", acl.SendCreate, func(c *gin.Context) {
			v, err := svc.Provinces(c.Request.Context())
			reply(c, v, err)
		}},
		{http.MethodGet, "/send/banks/counties", acl.SendCreate, func(c *gin.Context) {
			v, err := svc.Counties(c.Request.Context(), queryNum(c, "province_id"))
			reply(c, v, err)
		}},
		{http.MethodGet, "/send/banks/cities", acl.SendCreate, func(c *gin.Context) {
			v, err := svc.Cities(c.Request.Context(), queryNum(c, "province_id"), queryNum(c, "county_id"))
			reply(c, v, err)
		}},
		{http.MethodGet, "/send/banks/towers", acl.SendCreate, func(c *gin.Context) {
			var b bank.Box
			if err := c.ShouldBindQuery(&b); err != nil {
				b = bank.Box{}
			}
			v, err := svc.Towers(c.Request.Context(), b)
			reply(c, v, err)
		}},
		{http.MethodGet, "/send/banks/outlines/:kind", acl.SendCreate, outlines},
		{http.MethodGet, "/send/banks/map-settings", acl.SendCreate, func(c *gin.Context) {
			reply(c, gin.H{"tile_url": s.Config.MapTileURL}, nil)
		}},
		{http.MethodGet, "/send/jobs/categories", acl.SendCreate, func(c *gin.Context) {
			v, err := svc.JobCategories(c.Request.Context())
			reply(c, v, err)
		}},
		{http.MethodGet, "/send/jobs/sub-categories", acl.SendCreate, func(c *gin.Context) {
			v, err := svc.JobSubCategories(c.Request.Context(), queryNum(c, "category_id"))
			reply(c, v, err)
		}},
		{http.MethodPost, "/send/jobs/number-count", acl.SendCreate, byForm(func(ctx context.Context, id acl.Identity, r bank.CountRequest) (bank.Counts, error) {
			r.Type = bank.TypeBusiness
			return svc.Count(ctx, id.AccountID, r)
		}, false)},
	}
}

// outlines serves the province or county outlines (a GeoJSON feature collection
// as the envelope's data; © OpenStreetMap contributors, ODbL): the panel's offline
// map draws them.
func outlines(c *gin.Context) {
	var b []byte
	switch c.Param("kind") {
	case "provinces":
		b = irangeo.Provinces
	case "counties":
		b = irangeo.Counties
	default:
		c.Status(http.StatusNotFound)
		return
	}
	c.Header("Cache-Control", "private, max-age=86400")
	reply(c, json.RawMessage(b), nil)
}
