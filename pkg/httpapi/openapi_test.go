package httpapi_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"
	"github.com/pb33f/libopenapi"
	"github.com/pb33f/libopenapi-validator/schema_validation"

	"github.com/chapar/chapar/internal/testing/apitest"
	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/devdocs"
	"github.com/chapar/chapar/pkg/httpapi"
)

// docRoutes lists the document's operations as "METHOD /v1/api/path" in gin's
// :param syntax.
func docRoutes(t *testing.T) []string {
	t.Helper()
	var doc struct {
		Servers []struct{ URL string }
		Paths   map[string]map[string]json.RawMessage
	}
	if err := json.Unmarshal(devdocs.OpenAPI(), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Servers) != 1 || doc.Servers[0].URL != "/v1/api" {
		t.Fatalf("servers %+v", doc.Servers)
	}
	var out []string
	for p, ops := range doc.Paths {
		for m := range ops {
			if m == "parameters" || m == "summary" || m == "description" {
				continue
			}
			gin := strings.NewReplacer("{", ":", "}", "").Replace(p)
			out = append(out, strings.ToUpper(m)+" /v1/api"+gin)
		}
	}
	sort.Strings(out)
	return out
}

// The document describes the public set exactly: every public route of the live
// router is in it, nothing else is, and each path has the router's methods.
func TestOpenAPIMatchesRouter(t *testing.T) {
	e := apitest.Start(t, nil)
	live := map[string][]string{} // path -> methods of the live router
	engine, ok := e.Engine.(*gin.Engine)
	if !ok {
		t.Fatalf("the API handler is a %T", e.Engine)
	}
	for _, r := range engine.Routes() {
		live[r.Path] = append(live[r.Path], r.Method)
	}
	public := httpapi.PublicAPI()
	sort.Strings(public)
	documented := docRoutes(t)
	if !slices.Equal(public, documented) {
		t.Fatalf("public set and document differ:\npublic:   %v\ndocument: %v", public, documented)
	}
	// Every public route is one an API key may call.
	for _, rt := range httpapi.RoutesOf(e.Deps) {
		if slices.Contains(public, rt.Method+" /v1/api"+rt.Path) && (rt.Perm == acl.Authenticated || rt.Perm.IsStaff()) {
			t.Errorf("%s %s is public but declares %q, which refuses API keys", rt.Method, rt.Path, rt.Perm)
		}
	}
	perPath := map[string][]string{}
	for _, r := range documented {
		m, p, _ := strings.Cut(r, " ")
		perPath[p] = append(perPath[p], m)
	}
	for p, methods := range perPath {
		got := live[p]
		slices.Sort(got)
		slices.Sort(methods)
		if !slices.Equal(got, methods) {
			t.Errorf("%s: router has %v, document %v", p, got, methods)
		}
	}
}

// The document is valid OpenAPI 3.1: it builds as a v3 model and passes the 3.1
// schema; it is served as is, publicly and to the panel.
func TestOpenAPIValid(t *testing.T) {
	doc, err := libopenapi.NewDocument(devdocs.OpenAPI())
	if err != nil {
		t.Fatal(err)
	}
	if v := doc.GetVersion(); v != "3.1.0" {
		t.Fatalf("version %q", v)
	}
	if _, err := doc.BuildV3Model(); err != nil {
		t.Fatalf("v3 model: %v", err)
	}
	if ok, errs := schema_validation.ValidateOpenAPIDocument(doc); !ok {
		for _, e := range errs {
			t.Errorf("%s: %s", e.Message, e.Reason)
			for _, s := range e.SchemaValidationErrors {
				t.Errorf("  %s at %s", s.Reason, s.FieldPath)
			}
		}
	}
	e := apitest.Start(t, nil)
	res, err := http.Get(e.URL + "/v1/api/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || string(body) != string(devdocs.OpenAPI()) {
		t.Fatalf("openapi.json: %d, %d bytes", res.StatusCode, len(body))
	}
	e.Must(401, "GET", "/v1/api/panel/api-docs", nil, "")
	tok, _ := owner(t, e, "docsreader", "09121260001")
	var inPanel struct {
		OpenAPI string `json:"openapi"`
	}
	e.Must(200, "GET", "/v1/api/panel/api-docs", nil, tok).Decode(t, &inPanel)
	if inPanel.OpenAPI != "3.1.0" {
		t.Fatalf("panel document: %+v", inPanel)
	}
	var plugins []devdocs.Plugin
	e.Must(200, "GET", "/v1/api/panel/plugins", nil, tok).Decode(t, &plugins)
	if len(plugins) < 3 || plugins[0].Status != devdocs.StatusReady {
		t.Fatalf("plugins %+v", plugins)
	}
	// The WordPress plugin's zip is public (no token) and is the embedded one.
	res, err = http.Get(e.URL + "/v1/api/plugins/wordpress/download")
	if err != nil {
		t.Fatal(err)
	}
	zip, _ := io.ReadAll(res.Body)
	res.Body.Close()
	want, err := devdocs.PluginArchive("wordpress")
	if err != nil || res.StatusCode != 200 || !bytes.Equal(zip, want.Data) || res.Header.Get("Content-Type") != "application/zip" ||
		!strings.Contains(res.Header.Get("Content-Disposition"), "chapar-sms.zip") {
		t.Fatalf("plugin zip: %v, %d, %d bytes, %v", err, res.StatusCode, len(zip), res.Header)
	}
	e.Must(404, "GET", "/v1/api/plugins/woocommerce/download", nil, "")
	// The client libraries: the catalogue for a reader, each zip public.
	var libs []devdocs.Library
	e.Must(200, "GET", "/v1/api/panel/libraries", nil, tok).Decode(t, &libs)
	if len(libs) != 4 {
		t.Fatalf("libraries %+v", libs)
	}
	for _, l := range libs {
		res, err := http.Get(e.URL + l.Download)
		if err != nil {
			t.Fatal(err)
		}
		zip, _ := io.ReadAll(res.Body)
		res.Body.Close()
		want, err := devdocs.LibraryArchive(l.ID)
		if err != nil || res.StatusCode != 200 || !bytes.Equal(zip, want.Data) ||
			!strings.Contains(res.Header.Get("Content-Disposition"), "chapar-sdk-"+l.ID+".zip") {
			t.Fatalf("library %s zip: %v, %d, %d bytes", l.ID, err, res.StatusCode, len(zip))
		}
	}
	e.Must(404, "GET", "/v1/api/sdk/ruby/download", nil, "")
}
