package bank

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/operator"
)

// Send types that go to the bank, and the SMS type (spec §3) each is reported as.
const (
	TypeCityProvince  = "city_province"
	TypeBusiness      = "business"
	TypePostalCode    = "postal_code"
	TypeMap           = "map"
	TypeTowerIrancell = "tower_irancell"
)

// SMSTypes maps each bank send type to its SMS type of spec §3.
var SMSTypes = map[string]string{
	TypeCityProvince: "regional", TypeBusiness: "job", TypePostalCode: "postal_code",
	TypeMap: "map", TypeTowerIrancell: "irancellarea",
}

// IsBankType says whether a send type's recipients come from the bank.
func IsBankType(typ string) bool { _, ok := SMSTypes[typ]; return ok }

// MinRecipients is the smallest audience of a bank send (spec §5 «minimum 5,000»).
const MinRecipients = 5000

// Limits of a target.
const (
	maxIDs     = 500
	maxPostal  = 50
	maxPolygon = 500
	minRadius  = 200
	maxRadius  = 50_000
	maxPick    = 10_000_000
	iranMinLon = 43.0
	iranMaxLon = 64.0
	iranMinLat = 24.0
	iranMaxLat = 40.5
)

// Persian messages of targets.
const (
	MsgPlaceRequired   = "لطفا استان، شهرستان یا شهر را انتخاب کنید"
	MsgJobRequired     = "لطفا صنف یا زیرصنف را انتخاب کنید"
	MsgPostalRequired  = "لطفا دست‌کم یک پیش‌شماره کد پستی وارد کنید"
	MsgPostalFormat    = "پیش‌شماره کد پستی باید ۱ تا ۱۰ رقم باشد"
	MsgShapeRequired   = "لطفا روی نقشه یک چندضلعی یا دایره رسم کنید"
	MsgShapeInvalid    = "شکل رسم‌شده معتبر نیست؛ ضلع‌های آن نباید هم را قطع کنند"
	MsgShapeOutside    = "شکل رسم‌شده باید درون ایران باشد"
	MsgPolygonSize     = "چندضلعی باید ۳ تا ۵۰۰ رأس داشته باشد"
	MsgRadius          = "شعاع دایره باید بین ۲۰۰ متر و ۵۰ کیلومتر باشد"
	MsgTowersRequired  = "لطفا دست‌کم یک دکل ایرانسل انتخاب کنید"
	MsgTooMany         = "تعداد موارد انتخاب‌شده بیش از حد مجاز است"
	MsgBadOperator     = "اپراتور انتخاب‌شده معتبر نیست"
	MsgBadGender       = "جنسیت انتخاب‌شده معتبر نیست"
	MsgBadAgeBand      = "بازه سنی انتخاب‌شده معتبر نیست"
	MsgBadCount        = "تعداد گیرندگان باید عددی مثبت باشد"
	MsgMinimum         = "ارسال منطقه‌ای دست‌کم به ۵٬۰۰۰ گیرنده نیاز دارد؛ محدوده را بزرگ‌تر کنید"
	MsgTargetRequired  = "لطفا مخاطبان را انتخاب کنید"
	MsgUnknownBankType = "نوع ارسال بانک شماره معتبر نیست"
)

// Circle is a map circle: its centre and radius in metres.
type Circle struct {
	Lat    float64 `json:"lat"`
	Lon    float64 `json:"lon"`
	Radius float64 `json:"radius"`
}

// Target picks an audience from the bank: where (places, businesses, postal-code
// prefixes, a shape or towers, by the send type), narrowed by operator, gender and
// age band, then all of it or Count numbers drawn at random.
type Target struct {
	Provinces     []int        `json:"provinces,omitempty"`
	Counties      []int        `json:"counties,omitempty"`
	Cities        []int        `json:"cities,omitempty"`
	Categories    []int        `json:"categories,omitempty"`
	SubCategories []int        `json:"subcategories,omitempty"`
	PostalCodes   []string     `json:"postal_codes,omitempty"`
	Polygon       [][2]float64 `json:"polygon,omitempty"` // [lon, lat] vertices
	Circle        *Circle      `json:"circle,omitempty"`
	Towers        []int        `json:"towers,omitempty"`
	Operators     []string     `json:"operators,omitempty"`
	Genders       []int        `json:"genders,omitempty"`
	AgeBands      []int        `json:"age_bands,omitempty"`
	// Count is how many numbers to draw at random (0: all of them).
	Count int `json:"count,omitempty"`
	// Seed fixes the random draw so that the price and the expansion pick the
	// same numbers (set at accept).
	Seed int64 `json:"seed,omitempty"`
}

var digitsRE = regexp.MustCompile(`^[0-9]{1,10}$`)

// Check validates a target for a send type; errors are per-field (under
// "target.<field>").
func (t *Target) Check(typ string) error {
	f := apperr.Fields{}
	t.normalize()
	switch typ {
	case TypeCityProvince:
		if len(t.Provinces)+len(t.Counties)+len(t.Cities) == 0 {
			f.Add("target.provinces", MsgPlaceRequired)
		}
	case TypeBusiness:
		if len(t.Categories)+len(t.SubCategories) == 0 {
			f.Add("target.categories", MsgJobRequired)
		}
	case TypePostalCode:
		t.checkPostal(f)
	case TypeMap:
		t.checkShape(f)
	case TypeTowerIrancell:
		if len(t.Towers) == 0 {
			f.Add("target.towers", MsgTowersRequired)
		}
	default:
		f.Add("type", MsgUnknownBankType)
	}
	t.checkNarrowing(f)
	return f.Err()
}

// normalize drops duplicates and non-positive ids.
func (t *Target) normalize() {
	for _, ids := range []*[]int{&t.Provinces, &t.Counties, &t.Cities, &t.Categories, &t.SubCategories, &t.Towers, &t.Genders, &t.AgeBands} {
		*ids = positiveSet(*ids)
	}
	slices.Sort(t.Operators)
	t.Operators = slices.Compact(t.Operators)
}

func positiveSet(ids []int) []int {
	out := slices.DeleteFunc(slices.Clone(ids), func(v int) bool { return v <= 0 })
	slices.Sort(out)
	return slices.Compact(out)
}

func (t *Target) checkPostal(f apperr.Fields) {
	if len(t.PostalCodes) == 0 {
		f.Add("target.postal_codes", MsgPostalRequired)
		return
	}
	if len(t.PostalCodes) > maxPostal {
		f.Add("target.postal_codes", MsgTooMany)
	}
	for i, p := range t.PostalCodes {
		p = strings.TrimSpace(latinDigits(p))
		if !digitsRE.MatchString(p) {
			f.Add("target.postal_codes", MsgPostalFormat)
			return
		}
		t.PostalCodes[i] = p[:min(len(p), 5)] // the bank knows prefixes of five digits
	}
	slices.Sort(t.PostalCodes)
	t.PostalCodes = slices.Compact(t.PostalCodes)
}

// latinDigits turns Persian and Arabic digits into Latin ones.
func latinDigits(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= '۰' && r <= '۹':
			return '0' + r - '۰'
		case r >= '٠' && r <= '٩':
			return '0' + r - '٠'
		}
		return r
	}, s)
}

func inIran(lon, lat float64) bool {
	return lon >= iranMinLon && lon <= iranMaxLon && lat >= iranMinLat && lat <= iranMaxLat
}

func (t *Target) checkShape(f apperr.Fields) {
	switch {
	case t.Circle != nil:
		c := t.Circle
		if !inIran(c.Lon, c.Lat) {
			f.Add("target.circle", MsgShapeOutside)
		}
		if math.IsNaN(c.Radius) || c.Radius < minRadius || c.Radius > maxRadius {
			f.Add("target.circle", MsgRadius)
		}
	case len(t.Polygon) > 0:
		if len(t.Polygon) < 3 || len(t.Polygon) > maxPolygon {
			f.Add("target.polygon", MsgPolygonSize)
			return
		}
		for _, p := range t.Polygon {
			if !inIran(p[0], p[1]) {
				f.Add("target.polygon", MsgShapeOutside)
				return
			}
		}
	default:
		f.Add("target.polygon", MsgShapeRequired)
	}
}

func (t *Target) checkNarrowing(f apperr.Fields) {
	for _, ids := range [][]int{t.Provinces, t.Counties, t.Cities, t.Categories, t.SubCategories, t.Towers} {
		if len(ids) > maxIDs {
			f.Add("target", MsgTooMany)
			break
		}
	}
	for _, op := range t.Operators {
		if op != operator.MCI && op != operator.Irancell && op != operator.Rightel {
			f.Add("target.operators", MsgBadOperator)
			break
		}
	}
	for _, g := range t.Genders {
		if g > 2 {
			f.Add("target.genders", MsgBadGender)
			break
		}
	}
	for _, a := range t.AgeBands {
		if a > 5 {
			f.Add("target.age_bands", MsgBadAgeBand)
			break
		}
	}
	if t.Count < 0 || t.Count > maxPick {
		f.Add("target.count", MsgBadCount)
	}
}

// polygonJSON is the polygon as GeoJSON, its ring closed.
func (t *Target) polygonJSON() string {
	pts := slices.Clone(t.Polygon)
	if pts[0] != pts[len(pts)-1] {
		pts = append(pts, pts[0])
	}
	b, _ := json.Marshal(map[string]any{"type": "Polygon", "coordinates": [][][2]float64{pts}})
	return string(b)
}

// query builds a WHERE clause with numbered arguments.
type query struct {
	conds []string
	args  []any
}

// arg adds an argument and returns its placeholder.
func (q *query) arg(v any) string {
	q.args = append(q.args, v)
	return "$" + strconv.Itoa(len(q.args))
}

func (q *query) add(format string, vs ...any) {
	ph := make([]any, len(vs))
	for i, v := range vs {
		ph[i] = q.arg(v)
	}
	q.conds = append(q.conds, fmt.Sprintf(format, ph...))
}

func (q *query) where() string {
	if len(q.conds) == 0 {
		return "true"
	}
	return strings.Join(q.conds, " AND ")
}

// placeOnly says whether a target names only places, postal prefixes and the
// narrowing: bank_place_counts can count it.
func (t *Target) placeOnly() bool {
	return len(t.Categories)+len(t.SubCategories)+len(t.Towers) == 0 && !t.hasShape()
}

// jobOnly says whether a target names businesses and at most provinces besides the
// narrowing: bank_job_counts can count it.
func (t *Target) jobOnly() bool {
	return len(t.Categories)+len(t.SubCategories) > 0 &&
		len(t.Counties)+len(t.Cities)+len(t.PostalCodes)+len(t.Towers) == 0 && !t.hasShape()
}

// shapeOnly says whether a target is a map shape and the narrowing only: the cell
// roll-up can count it.
func (t *Target) shapeOnly() bool {
	return t.hasShape() && len(t.Provinces)+len(t.Counties)+len(t.Cities)+len(t.Categories)+
		len(t.SubCategories)+len(t.PostalCodes)+len(t.Towers) == 0
}

func (t *Target) hasShape() bool { return len(t.Polygon) > 0 || t.Circle != nil }

// filter adds the target's conditions on the bank (or on a roll-up when rollup is
// true: the same columns, with 0 for unknown).
func (t *Target) filter(q *query, rollup bool) {
	ints := func(col string, ids []int) {
		if len(ids) > 0 {
			q.add(col+" = ANY(%s::int[])", ids)
		}
	}
	ints("province", t.Provinces)
	ints("county", t.Counties)
	ints("city", t.Cities)
	ints("category", t.Categories)
	ints("subcategory", t.SubCategories)
	ints("tower", t.Towers)
	if len(t.PostalCodes) > 0 {
		likes := make([]string, len(t.PostalCodes))
		for i, p := range t.PostalCodes {
			likes[i] = "postal LIKE " + q.arg(p+"%")
		}
		q.conds = append(q.conds, "("+strings.Join(likes, " OR ")+")")
	}
	t.narrow(q, rollup)
	t.shapeFilter(q)
}

// narrow adds the operator, gender and age band conditions.
func (t *Target) narrow(q *query, rollup bool) {
	if len(t.Operators) > 0 {
		q.add("operator = ANY(%s::text[])", t.Operators)
	}
	known := func(col string, ids []int) {
		switch {
		case len(ids) == 0:
		case rollup:
			q.add(col+" = ANY(%s::int[])", ids)
		default:
			q.add("coalesce("+col+", 0) = ANY(%s::int[])", ids)
		}
	}
	known("gender", t.Genders)
	known("age_band", t.AgeBands)
}

// degreeMetres is a degree of latitude on PostGIS's sphere.
const degreeMetres = earthRadius * math.Pi / 180

// shapeFilter adds the map shape: the GiST index's && on its box, then the exact test.
func (t *Target) shapeFilter(q *query) {
	switch {
	case t.Circle != nil:
		b := circleRegion{*t.Circle}.bounds()
		q.add("geom && ST_MakeEnvelope(%s, %s, %s, %s, 4326)", b.minLon, b.minLat, b.maxLon, b.maxLat)
		t.circleTest(q)
	case len(t.Polygon) > 0:
		q.add("ST_Intersects(geom, ST_SetSRID(ST_GeomFromGeoJSON(%s), 4326))", t.polygonJSON())
	}
}

// circleTest is the circle's exact test on a number's lon/lat. A flat distance
// (degrees scaled at the centre's latitude) settles every point but those within 2%
// of the rim; only they pay for the distance on PostGIS's sphere (the haversine).
func (t *Target) circleTest(q *query) {
	c := t.Circle
	lon, lat := q.arg(c.Lon), q.arg(c.Lat)
	d2 := fmt.Sprintf("((lon - %s) * %s)^2 + (lat - %s)^2", lon, q.arg(math.Cos(c.Lat*math.Pi/180)), lat)
	r := c.Radius / degreeMetres
	sphere := fmt.Sprintf("%s * asin(sqrt(sin(radians(lat - %s) / 2)^2 + cos(radians(%s)) * cos(radians(lat)) * sin(radians(lon - %s) / 2)^2)) <= %s",
		q.arg(2*earthRadius), lat, lat, lon, q.arg(c.Radius))
	q.conds = append(q.conds, fmt.Sprintf("(%s <= %s OR (%s <= %s AND %s))", d2, q.arg(sq(0.98*r)), d2, q.arg(sq(1.02*r)), sphere))
}

// shapeTest is the map shape's exact test without the GiST index (the cell cover
// has already chosen the numbers).
func (t *Target) shapeTest(q *query) {
	if t.Circle != nil {
		t.circleTest(q)
		return
	}
	q.add("ST_Intersects(ST_SetSRID(ST_MakePoint(lon, lat), 4326), ST_SetSRID(ST_GeomFromGeoJSON(%s), 4326))", t.polygonJSON())
}

// region is the target's map shape for the cell cover (nil without one).
func (t *Target) region() region {
	switch {
	case t.Circle != nil:
		return circleRegion{*t.Circle}
	case len(t.Polygon) > 0:
		return newPolygonRegion(t.Polygon)
	}
	return nil
}
