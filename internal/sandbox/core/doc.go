// Package core is what every family of the sandbox stands on, as uni-core and one
// Kubernetes API server are what every Unikorn service stands on. It knows no family:
// families register with it, and meet each other only through what it offers.
//
// # A family
//
// A family is a folder (internal/sandbox/<service>/<family>) whose Family value the
// sandbox's families.go lists; its Register function gets the Server and adds:
//
//   - its kinds of record (Kind, Register): the store keeps them by ID, saves them in
//     the state file under Kind.Name, lags reads of them, lists them as objects
//     (Kind.Object) and finds their pending transitions (any Schedule field);
//   - state beyond records (Section, RegisterSection) and per-server state that is not
//     saved (Local);
//   - how other families read its records (Expose, ExposeCatalogue): as a shared API
//     type of internal/unikorn (View.Show, or View.ShowIn with what other records
//     say), where it lives (Placement) and who may see it;
//   - its routes (Handle, HandleService for the service-to-service APIs, HandleOpen),
//     its control operations (HandleControl), its service when it declares one
//     (Declare: a document, a prefix, a version; or a Handler of its own; a document
//     internal/sandbox/openapi lacks comes with the family, Service.Documents), and
//     the document that judges paths of its service that the service's own document
//     lacks (Judge: region's volumes, published in no whole document of region's);
//   - its fixtures (Fixture), migrations of older state files (Migrate), what its
//     controllers do as time passes (Advance, AdvanceLast), what runs once the store is
//     loaded (OnOpen) and before the last save (OnClose); Kind.Provision is the
//     controller of a kind whose records only provision and go;
//   - identity's families add the authenticators of tokens (Authenticate), the
//     system account of a service calling on its own account (AuthenticateSystem)
//     and the quota kinds (QuotaKinds).
//
// # A request
//
// A Handler gets a Request: the HTTP request, its Caller (what the token may do, an
// ACL), Now and the Store, brought up to date and, for a read, shown as the read lag's
// cache shows it. It answers a Reply (OK, Created, Accepted, NoContent) or an Error
// (BadRequest, Forbidden, NotFound, …) in core's error body; DecodeBody,
// ValidateWriteMetadata and ValidateUUID check bodies as the OpenAPI validator does,
// after the server has checked the request against its service's document. Access
// checks are RequireOrganization, RequireProject (a project being deleted refuses new
// references), AllowInProject and Lookup; lists are ParseListQuery and SelectList. The
// lifecycle helpers (ProvisionSchedule, ReprovisionSchedule, MarkDeleting,
// ApplyProvisioning, NewReadMetadata, ProjectMetadata) read the one clock, Now (the
// sandbox's Options.Now; ManualClock moves only when told), and the delays of the
// moment (ProvisionDelay, DeprovisionDelay). Server.Cached is the store
// as a handler's cache shows it, for a write that reads through it.
//
// # Where families meet
//
// As Unikorn's resources meet, never by calling each other:
//
//   - reads by shared API type: Get, Find (with Placement), Visible (for a caller), All,
//     LookupAs (with RBAC); a family may also change what it reads (identity's users
//     and service accounts write their groups' membership);
//   - creates by shared API type: Accept lets a family make records of its kind from
//     an object another family asks for, Create asks (a server's snapshot is an image
//     that image's family then looks after);
//   - references (Kind.References), as reference finalizers: Holders and Held tell
//     what holds an object in use (a network's servers and file storage, a project's
//     every object: a kind of project-scoped records says so by Kind.Project, which
//     lists them as objects too); AddReferences adds a service's own;
//   - owners (Kind.Owner, Kind.Life), as owner references: Collect deletes what an
//     object owns once it goes (a network's security groups and load balancers);
//   - quota: Allocate, Recharge, CheckQuota and the Allocations kind, with Charge for
//     the allocation a service makes of its own objects;
//   - the cloud: ports on subnets (Kind.Ports, Kind.Subnet) and AllocateAddress,
//     UsedAddresses, AllocatePublicAddress, NextMAC;
//   - a service that serves itself (compute, Kubernetes) reaches the others over HTTP:
//     Transport, Cache, Changes, NextChange, ValidToken, AuthorizeInProject, and keeps
//     its records in a Section (Keep, Kept), its objects and references through
//     AddObjects and AddReferences.
package core
