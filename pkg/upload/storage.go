package upload

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Storage keeps the uploaded originals. Disk is the default; an S3-compatible store
// implements the same four methods (Local downloads the object to a temporary file).
type Storage interface {
	// Put stores r under key and returns the bytes written. On error nothing is
	// left under key.
	Put(ctx context.Context, key string, r io.Reader) (int64, error)
	// Open reads the object back.
	Open(ctx context.Context, key string) (io.ReadCloser, error)
	// Local gives a local file holding the object's bytes, for readers that need
	// random access (xlsx is a zip archive); release removes any temporary copy.
	Local(ctx context.Context, key string) (path string, release func(), err error)
	// Delete removes the object; a missing object is not an error.
	Delete(ctx context.Context, key string) error
}

// ErrNoObject is returned for a key with no object.
var ErrNoObject = errors.New("upload: no such object")

// Disk stores objects as files under a directory (outside the web root).
type Disk struct{ Dir string }

// NewDisk returns a store under dir; the directory is created on the first Put.
func NewDisk(dir string) *Disk { return &Disk{Dir: dir} }

func (d *Disk) path(key string) (string, error) {
	clean := filepath.Clean("/" + key)
	if key == "" || clean == "/" || strings.Contains(key, "..") {
		return "", fmt.Errorf("upload: bad storage key %q", key)
	}
	return filepath.Join(d.Dir, clean), nil
}

// Put writes r to a temporary file beside the target and renames it into place.
func (d *Disk) Put(ctx context.Context, key string, r io.Reader) (int64, error) {
	p, err := d.path(key)
	if err != nil {
		return 0, err
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o750); err != nil {
		return 0, fmt.Errorf("upload: store dir: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(p), ".part-*")
	if err != nil {
		return 0, fmt.Errorf("upload: store: %w", err)
	}
	n, err := io.Copy(tmp, ctxReader{ctx, r})
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), p)
	}
	if err != nil {
		_ = os.Remove(tmp.Name())
		return n, err
	}
	return n, nil
}

// Open opens the stored file.
func (d *Disk) Open(_ context.Context, key string) (io.ReadCloser, error) {
	p, err := d.path(key)
	if err != nil {
		return nil, err
	}
	f, err := os.Open(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, ErrNoObject
	}
	return f, err
}

// Local is the stored file itself.
func (d *Disk) Local(_ context.Context, key string) (string, func(), error) {
	p, err := d.path(key)
	if err != nil {
		return "", nil, err
	}
	if _, err := os.Stat(p); errors.Is(err, fs.ErrNotExist) {
		return "", nil, ErrNoObject
	} else if err != nil {
		return "", nil, err
	}
	return p, func() {}, nil
}

// Delete removes the stored file.
func (d *Disk) Delete(_ context.Context, key string) error {
	p, err := d.path(key)
	if err != nil {
		return err
	}
	if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("upload: delete: %w", err)
	}
	return nil
}

// ctxReader stops a copy when the context ends (a client that went away).
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

// Read returns the context's error once it ends, and otherwise reads from the underlying reader.
func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}
