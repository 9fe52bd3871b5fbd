package validators

import "context"

// Described is what a validator or a plan modifier says of itself, said once: the
// framework asks for it as text and as Markdown, and the provider's read the same
// either way. Embedded, it answers both.
type Described string

func (d Described) Description(context.Context) string { return string(d) }

func (d Described) MarkdownDescription(context.Context) string { return string(d) }
