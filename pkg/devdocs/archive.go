package devdocs

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"sync"
	"time"

	"github.com/chapar/chapar/integrations/wordpress"
)

// ErrNoArchive is returned for a plugin of the catalogue that has nothing to download.
var ErrNoArchive = errors.New("devdocs: the plugin has no download")

// archiveTime is the modification time written on every zip entry: the files are
// embedded, without times of their own, and the same source gives the same zip.
var archiveTime = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

// Archive is a plugin's download: its file name and the zip's bytes.
type Archive struct {
	Name string
	Data []byte
}

var wordpressZip = sync.OnceValues(func() (Archive, error) {
	data, err := zipFS(wordpress.Plugin(), wordpress.PluginDir, wordpress.PluginDir)
	return Archive{Name: wordpress.PluginDir + ".zip", Data: data}, err
})

// PluginArchive returns the zip of a plugin of the catalogue (built once from the
// embedded files), or ErrNoArchive.
func PluginArchive(id string) (Archive, error) {
	if id != "wordpress" {
		return Archive{}, ErrNoArchive
	}
	return wordpressZip()
}

// zipFS zips the tree under root of fsys into a folder named folder (a WordPress
// plugin zip holds its folder).
func zipFS(fsys fs.FS, root, folder string) ([]byte, error) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	err := fs.WalkDir(fsys, root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(fsys, path)
		if err != nil {
			return fmt.Errorf("read %s: %w", path, err)
		}
		w, err := zw.CreateHeader(&zip.FileHeader{Name: folder + strings.TrimPrefix(path, root), Method: zip.Deflate, Modified: archiveTime})
		if err != nil {
			return fmt.Errorf("zip %s: %w", path, err)
		}
		_, err = w.Write(data)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("zip %s: %w", root, err)
	}
	if err := zw.Close(); err != nil {
		return nil, fmt.Errorf("zip %s: %w", root, err)
	}
	return buf.Bytes(), nil
}
