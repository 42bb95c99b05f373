package bank

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"

	irangeo "github.com/chapar/chapar/data/iran-geo"
)

// Province is one of Iran's 31 provinces.
type Province struct {
	Code   int     `json:"code"`
	NameFa string  `json:"name"`
	NameEn string  `json:"name_en"`
	Lon    float64 `json:"lon"`
	Lat    float64 `json:"lat"`
}

// County is a county (شهرستان) of a province.
type County struct {
	Code     int     `json:"code"`
	Province int     `json:"province_code"`
	NameFa   string  `json:"name"`
	NameEn   string  `json:"name_en"`
	Lon      float64 `json:"lon"`
	Lat      float64 `json:"lat"`

	shape []polygon
	bound box
}

// City is a city; the generator places it in a county of its province.
type City struct {
	ID       int     `json:"id"`
	Province int     `json:"province_code"`
	County   int     `json:"county_code"`
	NameFa   string  `json:"name"`
	NameEn   string  `json:"name_en"`
	Lon      float64 `json:"lon"`
	Lat      float64 `json:"lat"`
}

// Geo is the embedded geography of Iran (data/iran-geo).
type Geo struct {
	Provinces []Province
	Counties  []County
	// cities are the province's city names; the generator places them.
	cities []City
}

// provincePeople is each province's population in thousands (2016 census,
// rounded), by province code: the bank is spread by it.
var provincePeople = [32]int{0, 2712, 1270, 1163, 947, 3909, 4851, 2530, 1868, 1738, 1776, 580, 5120, 3164, 1952,
	4710, 713, 1603, 1760, 1429, 3283, 863, 1273, 1292, 6434, 702, 2775, 768, 13267, 3265, 1138, 1057}

// capitals names each province's capital county (it holds about half the people).
var capitals = [32]string{"", "کرج", "اردبیل", "بوشهر", "شهرکرد", "تبریز", "شیراز", "رشت", "گرگان", "همدان", "بندرعباس",
	"ایلام", "اصفهان", "کرمان", "کرمانشاه", "اهواز", "بویراحمد", "سنندج", "خرم‌آباد", "اراک", "ساری", "بجنورد", "قزوین",
	"قم", "مشهد", "سمنان", "زاهدان", "بیرجند", "تهران", "ارومیه", "یزد", "زنجان"}

var (
	geoOnce sync.Once
	geoData *Geo
	geoErr  error
)

// LoadGeo parses the embedded geography once.
func LoadGeo() (*Geo, error) {
	geoOnce.Do(func() { geoData, geoErr = parseGeo() })
	return geoData, geoErr
}

// feature is one GeoJSON feature of the embedded files.
type feature struct {
	Properties struct {
		Code     int        `json:"code"`
		Province int        `json:"province_code"`
		NameFa   string     `json:"name_fa"`
		NameEn   string     `json:"name_en"`
		Center   [2]float64 `json:"center"`
	} `json:"properties"`
	Geometry struct {
		Type        string          `json:"type"`
		Coordinates json.RawMessage `json:"coordinates"`
	} `json:"geometry"`
}

func features(b []byte) ([]feature, error) {
	var fc struct {
		Features []feature `json:"features"`
	}
	err := json.Unmarshal(b, &fc)
	return fc.Features, err
}

func parseGeo() (*Geo, error) {
	g := &Geo{}
	pf, err := features(irangeo.Provinces)
	if err != nil {
		return nil, fmt.Errorf("provinces: %w", err)
	}
	for _, f := range pf {
		p := f.Properties
		g.Provinces = append(g.Provinces, Province{Code: p.Code, NameFa: p.NameFa, NameEn: p.NameEn, Lon: p.Center[0], Lat: p.Center[1]})
	}
	sort.Slice(g.Provinces, func(i, j int) bool { return g.Provinces[i].Code < g.Provinces[j].Code })
	cf, err := features(irangeo.Counties)
	if err != nil {
		return nil, fmt.Errorf("counties: %w", err)
	}
	for _, f := range cf {
		c, err := county(f)
		if err != nil {
			return nil, err
		}
		g.Counties = append(g.Counties, c)
	}
	sort.Slice(g.Counties, func(i, j int) bool { return g.Counties[i].Code < g.Counties[j].Code })
	var cities []struct {
		Province int    `json:"province_code"`
		NameFa   string `json:"name_fa"`
		NameEn   string `json:"name_en"`
	}
	if err := json.Unmarshal(irangeo.Cities, &cities); err != nil {
		return nil, fmt.Errorf("cities: %w", err)
	}
	for i, c := range cities {
		g.cities = append(g.cities, City{ID: i + 1, Province: c.Province, NameFa: c.NameFa, NameEn: c.NameEn})
	}
	return g, nil
}

func county(f feature) (County, error) {
	p := f.Properties
	c := County{Code: p.Code, Province: p.Province, NameFa: p.NameFa, NameEn: p.NameEn, Lon: p.Center[0], Lat: p.Center[1]}
	var err error
	switch f.Geometry.Type {
	case "MultiPolygon":
		var mp [][][][2]float64
		err = json.Unmarshal(f.Geometry.Coordinates, &mp)
		for _, poly := range mp {
			c.shape = append(c.shape, polygonOf(poly))
		}
	case "Polygon":
		var poly [][][2]float64
		err = json.Unmarshal(f.Geometry.Coordinates, &poly)
		c.shape = []polygon{polygonOf(poly)}
	default:
		err = fmt.Errorf("geometry %s", f.Geometry.Type)
	}
	if err != nil {
		return c, fmt.Errorf("county %d: %w", c.Code, err)
	}
	c.bound = emptyBox()
	for _, p := range c.shape {
		c.bound = c.bound.union(p.rings[0].bound)
	}
	return c, nil
}

// polygonOf turns GeoJSON rings into a polygon.
func polygonOf(rings [][][2]float64) polygon {
	var p polygon
	for _, r := range rings {
		p.rings = append(p.rings, ringOf(r))
	}
	return p
}

// Contains says whether a point (lon, lat) is inside the county.
func (c *County) Contains(lon, lat float64) bool {
	if !c.bound.has(lon, lat) {
		return false
	}
	for i := range c.shape {
		if c.shape[i].contains(lon, lat) {
			return true
		}
	}
	return false
}

// CountiesOf lists a province's counties.
func (g *Geo) CountiesOf(province int) []*County {
	var out []*County
	for i := range g.Counties {
		if g.Counties[i].Province == province {
			out = append(out, &g.Counties[i])
		}
	}
	return out
}

// normName compares place names without spaces and zero-width non-joiners.
func normName(s string) string {
	return strings.NewReplacer(" ", "", "\u200c", "", "ي", "ی", "ك", "ک").Replace(s)
}
