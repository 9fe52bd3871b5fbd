package storage

// RBACStorageClasses is what region checks of a class labelled with an organization.
const RBACStorageClasses = rbacStorageClasses

// Classes counts the storage classes of the catalogue.
var Classes = len(storageClasses)
