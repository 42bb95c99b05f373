package upload

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/chapar/chapar/pkg/apperr"
)

// Rows yields the rows of a file's first sheet, as the parser reads them.
type Rows interface {
	// Next returns the next row's cells and its 1-based number in the sheet;
	// io.EOF after the last row. A file that cannot be read as its format is
	// a field error of "file" with the Persian reason.
	Next() (cells []string, no int, err error)
	Close() error
}

// OpenRows opens a file on local disk, named name by its uploader, with the same
// readers and bounds as the parse of an uploaded file (xlsx streamed with its
// unpacked sizes checked, csv with a sniffed delimiter, txt). A name whose
// extension is not xlsx, csv or txt is a field error of "file"; a file whose
// content is not its format is ErrFormat.
func OpenRows(path, name string) (Rows, error) {
	ext, err := checkExtension(name, PurposeContacts)
	if err != nil {
		return nil, err
	}
	if ext != "xlsx" {
		if err := checkText(path); err != nil {
			return nil, err
		}
	}
	src, err := openSource(path, ext)
	if err != nil {
		return nil, fieldError(err)
	}
	return fieldRows{src}, nil
}

// fieldRows reports a file error met while reading as a field error of "file".
type fieldRows struct{ rowSource }

// Next returns the next row; a file error is a field error of "file".
func (r fieldRows) Next() ([]string, int, error) {
	cells, no, err := r.rowSource.Next()
	if err != nil && err != io.EOF {
		err = fieldError(err)
	}
	return cells, no, err
}

// fieldError turns a *FileError into its field error of "file".
func fieldError(err error) error {
	var fe *FileError
	if errors.As(err, &fe) {
		return apperr.Field("file", fe.Message)
	}
	return err
}

// checkText refuses a csv or txt file whose first bytes are binary: a NUL byte
// outside a UTF-16 text, or an archive or document signature.
func checkText(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("open upload: %w", err)
	}
	defer f.Close()
	head := make([]byte, 4096)
	n, err := io.ReadFull(f, head)
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return fmt.Errorf("read upload: %w", err)
	}
	head = head[:n]
	utf16 := bytes.HasPrefix(head, []byte{0xFF, 0xFE}) || bytes.HasPrefix(head, []byte{0xFE, 0xFF})
	for _, sig := range [][]byte{[]byte("PK\x03\x04"), []byte("%PDF"), {0xD0, 0xCF, 0x11, 0xE0}, {0x89, 'P', 'N', 'G'}, {0xFF, 0xD8, 0xFF}} {
		if bytes.HasPrefix(head, sig) {
			return apperr.Field("file", MsgFormat)
		}
	}
	if !utf16 && bytes.IndexByte(head, 0) >= 0 {
		return apperr.Field("file", MsgFormat)
	}
	return nil
}
