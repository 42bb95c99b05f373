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
	return []Route{
		{http.MethodPost, "/send/banks/counts", acl.SendCreate, s.bankCount(false)},
		{http.MethodGet, "/send/banks/provinces", acl.SendCreate, s.provinces},
		{http.MethodGet, "/send/banks/counties", acl.SendCreate, s.counties},
		{http.MethodGet, "/send/banks/cities", acl.SendCreate, s.cities},
		{http.MethodGet, "/send/banks/towers", acl.SendCreate, s.towers},
		{http.MethodGet, "/send/banks/outlines/:kind", acl.SendCreate, s.outlines},
		{http.MethodGet, "/send/banks/map-settings", acl.SendCreate, s.mapSettings},
		{http.MethodGet, "/send/jobs/categories", acl.SendCreate, s.jobCategories},
		{http.MethodGet, "/send/jobs/sub-categories", acl.SendCreate, s.jobSubCategories},
		{http.MethodPost, "/send/jobs/number-count", acl.SendCreate, s.bankCount(true)},
	}
}

// bankCount answers the count and price of an audience of the number bank; with
// business, of the businesses (the jobs' number count).
func (s *Server) bankCount(business bool) gin.HandlerFunc {
	return byForm(func(ctx context.Context, id acl.Identity, r bank.CountRequest) (bank.Counts, error) {
		if business {
			r.Type = bank.TypeBusiness
		}
		return s.Bank.Count(ctx, id.AccountID, r)
	}, false)
}

func (s *Server) provinces(c *gin.Context) {
	v, err := s.Bank.Provinces(c.Request.Context())
	reply(c, v, err)
}

// counties is GET counties?province_id=.
func (s *Server) counties(c *gin.Context) {
	v, err := s.Bank.Counties(c.Request.Context(), queryNum(c, "province_id"))
	reply(c, v, err)
}

// cities is GET cities?province_id=&county_id=.
func (s *Server) cities(c *gin.Context) {
	v, err := s.Bank.Cities(c.Request.Context(), queryNum(c, "province_id"), queryNum(c, "county_id"))
	reply(c, v, err)
}

// towers is GET towers?… the map's box (no box when it does not parse).
func (s *Server) towers(c *gin.Context) {
	var b bank.Box
	if err := c.ShouldBindQuery(&b); err != nil {
		b = bank.Box{}
	}
	v, err := s.Bank.Towers(c.Request.Context(), b)
	reply(c, v, err)
}

// mapSettings answers the map's tile address.
func (s *Server) mapSettings(c *gin.Context) {
	reply(c, gin.H{"tile_url": s.Config.MapTileURL}, nil)
}

func (s *Server) jobCategories(c *gin.Context) {
	v, err := s.Bank.JobCategories(c.Request.Context())
	reply(c, v, err)
}

// jobSubCategories is GET sub-categories?category_id=.
func (s *Server) jobSubCategories(c *gin.Context) {
	v, err := s.Bank.JobSubCategories(c.Request.Context(), queryNum(c, "category_id"))
	reply(c, v, err)
}

// outlines serves the province or county outlines (a GeoJSON feature collection
// as the envelope's data; © OpenStreetMap contributors, ODbL): the panel's offline
// map draws them.
func (s *Server) outlines(c *gin.Context) {
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
