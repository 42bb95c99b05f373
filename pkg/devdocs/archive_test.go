package devdocs_test

import (
	"archive/zip"
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/chapar/chapar/pkg/devdocs"
)

// The WordPress plugin's zip holds its folder with the main file (its plugin header)
// and includes/; every ready plugin with a download is in the catalogue.
func TestWordPressArchive(t *testing.T) {
	a, err := devdocs.PluginArchive("wordpress")
	if err != nil {
		t.Fatal(err)
	}
	if a.Name != "chapar-sms.zip" {
		t.Fatalf("name %q", a.Name)
	}
	zr, err := zip.NewReader(bytes.NewReader(a.Data), int64(len(a.Data)))
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]*zip.File{}
	for _, f := range zr.File {
		names[f.Name] = f
	}
	for _, want := range []string{"chapar-sms/chapar-sms.php", "chapar-sms/readme.txt", "chapar-sms/includes/class-chapar-sms-client.php", "chapar-sms/includes/verify.php"} {
		if names[want] == nil {
			t.Errorf("%s missing from the zip (%d files)", want, len(zr.File))
		}
	}
	rc, err := names["chapar-sms/chapar-sms.php"].Open()
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	var main bytes.Buffer
	if _, err := main.ReadFrom(rc); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(main.String(), "Plugin Name:") {
		t.Error("the main file has no plugin header")
	}
	again, _ := devdocs.PluginArchive("wordpress")
	if !bytes.Equal(again.Data, a.Data) {
		t.Error("the zip changed between calls")
	}
	if _, err := devdocs.PluginArchive("woocommerce"); !errors.Is(err, devdocs.ErrNoArchive) {
		t.Errorf("woocommerce: %v, want ErrNoArchive", err)
	}
	var wp *devdocs.Plugin
	for _, p := range devdocs.Plugins() {
		if p.ID == "wordpress" {
			wp = &p
		}
	}
	if wp == nil || wp.Status != devdocs.StatusReady || wp.Download != "/v1/api/plugins/wordpress/download" {
		t.Errorf("catalogue entry %+v", wp)
	}
}
