package users

// UndefinedName is the name identity gives an organization's user.
const UndefinedName = undefinedName
