package image

// DefaultImportedSizeGiB is the size an imported image shows once ready, unless its
// source says otherwise.
const DefaultImportedSizeGiB = defaultImportedSizeGiB
