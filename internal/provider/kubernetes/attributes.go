package kubernetes

// Descriptions of a cluster's attributes, shared by the resource, the data source and
// the list resource, so that each is described once.
const (
	TypeName           = "unikorn_kubernetes_cluster"
	KubeconfigTypeName = "unikorn_kubernetes_cluster_kubeconfig"
	VersionsTypeName   = "unikorn_kubernetes_versions"

	descriptionCluster = "A Kubernetes cluster of Unikorn's Kubernetes service: a control plane and workload pools " +
		"of machines in a region. It is charged to the organization's quotas: one of `clusters`, and its workload " +
		"pools at their most machines to `servers` (and their GPUs to `gpus`); the control plane is free."

	descriptionID             = "ID of the cluster."
	descriptionName           = "Name of the cluster. The service does not require names to be unique."
	descriptionDescription    = "Description of the cluster."
	descriptionTags           = "Tags of the cluster, by name."
	descriptionOrganizationID = "Organization of the cluster."
	descriptionProjectID      = "Project of the cluster."
	descriptionRegionID       = "Region the cluster is in: one the Kubernetes service offers clusters in."
	descriptionVersion        = "Kubernetes version, exactly as the region's images name it (`v1.31.0`), as the " +
		"`unikorn_kubernetes_versions` data source lists them."
	descriptionManagerID = "Cluster manager of the cluster: what provisions, upgrades and deletes it, the project's " +
		"`default` one, which the service makes for the project's first cluster and every later one shares; it is " +
		"not deleted with the clusters, and goes with the project."
	descriptionControlPlane = "Machines that run the cluster's control plane; the service does not charge them to " +
		"quota."
	descriptionControlPlaneFlavor = "Flavor of the control plane's machines: one of the region's with at least " +
		"2 CPUs and 2 GiB."
	descriptionControlPlaneReplicas = "Number of control plane machines, odd (etcd keeps quorum only so)."
	descriptionPools                = "Workload pools, by name (a DNS label: lower-case letters, digits and `-`, " +
		"at most 63). A pool keeps its name: a changed name is a pool removed and another added."
	descriptionPoolFlavor = "Flavor of the pool's machines: one of the region's with at least 2 CPUs and 2 GiB, of " +
		"an architecture the version has images for."
	descriptionPoolReplicas = "Number of machines in the pool, or, with `min_replicas`, the most the cluster's " +
		"autoscaler grows it to. The `servers` quota is charged this many."
	descriptionPoolMinReplicas = "The least the cluster's autoscaler shrinks the pool to; leaving it out gives a pool " +
		"of a fixed size."
	descriptionPoolDisk    = "Size of each machine's disk in GiB; the flavor's own disk when left out."
	descriptionPoolLabels  = "Kubernetes labels of the pool's nodes."
	descriptionAutoUpgrade = "When the service may move the cluster to a newer application bundle by itself. Left " +
		"out, the platform's default policy applies (upgrades on, in a window the platform chooses). Whatever it " +
		"says, the service upgrades a cluster whose bundle reaches its end of life."
	descriptionAutoUpgradeEnabled = "Whether the service upgrades the cluster by itself."
	descriptionAutoUpgradeDays    = "The windows upgrades may happen in, by day (`sunday` to `saturday`); days " +
		"left out have none. Left out, the platform chooses."
	descriptionWindowStart     = "Hour (0 to 23, UTC) upgrades may start from."
	descriptionWindowEnd       = "Hour (0 to 23, UTC) upgrades may start until; a window may run past midnight."
	descriptionHardware        = "Whether the service installs hardware operators and drivers (such as the GPU operator)."
	descriptionAPI             = "Who may reach the cluster's Kubernetes API, and which names its certificate carries."
	descriptionAllowedPrefixes = "IPv4 prefixes allowed to reach the Kubernetes API; every address when left out."
	descriptionSANs            = "Extra X.509 subject alternative names of the API's certificate, such as a DNS " +
		"name in front of it."
	descriptionNetworking = "The cluster's address ranges. The service takes them once, when it makes the " +
		"cluster, and ignores them afterwards, so any change replaces the cluster. Left out, or in part, the " +
		"service's defaults apply (by default 192.168.0.0/24, 172.16.0.0/12 and 10.0.0.0/8; an operator may " +
		"change them). The machines use the name servers the service is configured with."
	descriptionNodePrefix    = "IPv4 prefix the cluster's machines get their addresses from."
	descriptionServicePrefix = "IPv4 prefix of the cluster's services."
	descriptionPodPrefix     = "IPv4 prefix of the cluster's pods."
	descriptionBundle        = "Application bundle the cluster runs: the versioned software the service installs. " +
		"The service moves it on by itself (see `auto_upgrade`), so it may change between runs."
	descriptionHealth       = "Health of the cluster as the service's monitor last saw it: `unknown` until it has looked, then `healthy`, `degraded` or `error`."
	descriptionProvisioning = "How far the service has come making the cluster as it is written: `provisioned` once it has."
)
