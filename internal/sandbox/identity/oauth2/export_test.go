package oauth2

// The token endpoint's vocabulary, for the tests that speak it.
const (
	GrantTokenExchange     = grantTokenExchange
	GrantClientCredentials = grantClientCredentials
	AccessTokenType        = accessTokenType
	PassportType           = passportType
	OAuth2InvalidScope     = oauth2InvalidScope
)

// UserinfoClaims is identity `userinfo`.
type UserinfoClaims = userinfoClaims

// ES512Size is the size of each of a P-521 signature's halves and of a coordinate.
const ES512Size = es512Size

// AuthClaims is identity `authClaims`.
type AuthClaims = authClaims
