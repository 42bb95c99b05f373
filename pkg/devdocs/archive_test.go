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

// Each client library's zip holds its folder, renamed chapar-sdk-<id>, with its
// package file and sources; each sample sends from the sample line with the sample
// key, which the panel replaces with the reader's.
func TestLibraryArchives(t *testing.T) {
	want := map[string][]string{
		"php":        {"composer.json", "src/Client.php", "README.md"},
		"python":     {"pyproject.toml", "src/chapar/client.py"},
		"javascript": {"package.json", "src/index.js", "src/index.d.ts"},
		"go":         {"client.go", "webhook.go"},
	}
	libs := devdocs.Libraries()
	if len(libs) != len(want) {
		t.Fatalf("%d libraries", len(libs))
	}
	for _, l := range libs {
		a, err := devdocs.LibraryArchive(l.ID)
		if err != nil {
			t.Fatal(err)
		}
		zr, err := zip.NewReader(bytes.NewReader(a.Data), int64(len(a.Data)))
		if err != nil {
			t.Fatal(err)
		}
		names := map[string]bool{}
		for _, f := range zr.File {
			names[f.Name] = true
		}
		for _, f := range want[l.ID] {
			if !names["chapar-sdk-"+l.ID+"/"+f] {
				t.Errorf("%s: %s missing from %s (%d files)", l.ID, f, a.Name, len(zr.File))
			}
		}
		if !strings.Contains(l.Sample, devdocs.SampleLine) || !strings.Contains(l.Sample, devdocs.SampleKey) ||
			!strings.Contains(l.Sample, devdocs.SampleBase) || l.Download != "/v1/api/sdk/"+l.ID+"/download" {
			t.Errorf("%s: sample or download %+v", l.ID, l)
		}
	}
	if _, err := devdocs.LibraryArchive("ruby"); !errors.Is(err, devdocs.ErrNoArchive) {
		t.Fatalf("an unknown library: %v", err)
	}
}
