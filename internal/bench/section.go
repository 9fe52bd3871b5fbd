package bench

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
)

// UpdateSection replaces the generated section called name in the Markdown file at
// path, between the lines `<!-- BEGIN name -->` and `<!-- END name -->`, keeping
// everything people wrote around it. A file or section that does not exist yet is
// created, the section at the end.
func UpdateSection(path, name, content string) error {
	begin, end := "<!-- BEGIN "+name+" -->\n", "<!-- END "+name+" -->\n"

	existing, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}

	text := string(existing)
	section := begin + strings.TrimSuffix(content, "\n") + "\n" + end

	start := strings.Index(text, begin)
	stop := strings.Index(text, end)

	switch {
	case start < 0 && stop < 0:
		if text != "" && !strings.HasSuffix(text, "\n\n") {
			text = strings.TrimSuffix(text, "\n") + "\n\n"
		}

		text += section
	case start >= 0 && stop > start:
		text = text[:start] + section + text[stop+len(end):]
	default:
		return fmt.Errorf("%s: the markers of section %q are unbalanced", path, name)
	}

	return os.WriteFile(path, []byte(text), 0o644) //nolint:gosec // a document in the repository, readable by all
}
