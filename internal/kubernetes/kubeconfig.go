package kubernetes

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"slices"

	"go.yaml.in/yaml/v3"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// Kubeconfig is a cluster's administrator kubeconfig, and its parts as a client of
// the cluster's API takes them. Every part but Host is secret or a key to one.
type Kubeconfig struct {
	// Raw is the whole kubeconfig, YAML, as the service answered it.
	Raw string
	// Host is the URL of the cluster's Kubernetes API.
	Host string
	// CACertificate is the PEM of the authority that signed the API's certificate.
	CACertificate string
	// ClientCertificate and ClientKey are the PEM of the administrator's client
	// certificate and its key; Token is a bearer token. A kubeconfig carries either or
	// both; what it lacks is empty.
	ClientCertificate string
	ClientKey         string
	Token             string
}

// NotProvisionedError means a cluster has no kubeconfig yet: the service makes it
// while it provisions the cluster, and answers 404 until then.
type NotProvisionedError struct {
	ID     string
	Status string
}

func (e *NotProvisionedError) Error() string {
	return fmt.Sprintf("Kubernetes cluster %s has no kubeconfig: it is %s, and the service makes the kubeconfig "+
		"while it provisions the cluster", e.ID, e.Status)
}

// Kubeconfig returns a cluster's kubeconfig. The cluster is read first, for its
// project: one missing from the list past the read lag is a *cloud.LookupError. The
// service makes the kubeconfig while it provisions the cluster and answers 404 until
// then, and reads it from the cluster's manager, which may not show it the moment
// the cluster does: a 404 is asked again until the read lag has passed, and then is
// a *NotProvisionedError for a cluster not yet provisioned.
func (s *Service) Kubeconfig(ctx context.Context, organizationID, id string) (*Kubeconfig, error) {
	cluster, err := s.Read(ctx, organizationID, id)

	switch {
	case err != nil:
		return nil, err
	case cluster == nil:
		return nil, &cloud.LookupError{Kind: "Kubernetes cluster", Selector: Selector{ID: id}}
	}

	var raw []byte

	err = s.session.PastReadLag(ctx, func(ctx context.Context) error {
		raw, err = s.client.GetKubernetesClusterKubeconfig(ctx, organizationID, cluster.Metadata.ProjectID, id)

		return err
	})

	switch status := cluster.Metadata.ProvisioningStatus; {
	case unikorn.IsNotFound(err) && cluster.Metadata.Deleting:
		return nil, &NotProvisionedError{ID: id, Status: "being deleted"}
	case unikorn.IsNotFound(err) && status != unikorn.ProvisioningProvisioned:
		return nil, &NotProvisionedError{ID: id, Status: status}
	case err != nil:
		return nil, err
	}

	return ParseKubeconfig(raw)
}

// kubeconfigFile is the part of a kubeconfig (client-go's `Config`, version v1) that
// a client of one cluster needs.
type kubeconfigFile struct {
	CurrentContext string         `yaml:"current-context"`
	Clusters       []namedCluster `yaml:"clusters"`
	Users          []namedUser    `yaml:"users"`
	Contexts       []namedContext `yaml:"contexts"`
}

type namedCluster struct {
	Name    string `yaml:"name"`
	Cluster struct {
		Server                   string `yaml:"server"`
		CertificateAuthorityData string `yaml:"certificate-authority-data"`
	} `yaml:"cluster"`
}

type namedUser struct {
	Name string `yaml:"name"`
	User struct {
		ClientCertificateData string `yaml:"client-certificate-data"`
		ClientKeyData         string `yaml:"client-key-data"`
		Token                 string `yaml:"token"`
	} `yaml:"user"`
}

type namedContext struct {
	Name    string `yaml:"name"`
	Context struct {
		Cluster string `yaml:"cluster"`
		User    string `yaml:"user"`
	} `yaml:"context"`
}

// ParseKubeconfig takes a kubeconfig apart: the cluster and user of its current
// context (or of its only context), their data decoded from base64. Its errors never
// quote the kubeconfig, which is secret.
func ParseKubeconfig(raw []byte) (*Kubeconfig, error) {
	var file kubeconfigFile
	if err := yaml.Unmarshal(raw, &file); err != nil {
		return nil, errors.New("the kubeconfig the service answered is not YAML")
	}

	contextIndex := slices.IndexFunc(file.Contexts, func(c namedContext) bool { return c.Name == file.CurrentContext })
	if contextIndex < 0 && len(file.Contexts) == 1 {
		contextIndex = 0
	}

	if contextIndex < 0 {
		return nil, errors.New("the kubeconfig the service answered has no current context")
	}

	current := file.Contexts[contextIndex].Context
	out := &Kubeconfig{Raw: string(raw)}

	clusterFound, userFound := false, false

	for _, cluster := range file.Clusters {
		if cluster.Name == current.Cluster {
			clusterFound = true
			out.Host = cluster.Cluster.Server
			out.CACertificate = decode(cluster.Cluster.CertificateAuthorityData)
		}
	}

	for _, user := range file.Users {
		if user.Name == current.User {
			userFound = true
			out.ClientCertificate = decode(user.User.ClientCertificateData)
			out.ClientKey = decode(user.User.ClientKeyData)
			out.Token = user.User.Token
		}
	}

	switch {
	case !clusterFound || out.Host == "":
		return nil, errors.New("the kubeconfig the service answered names no cluster server for its current context")
	case !userFound || (out.Token == "" && (out.ClientCertificate == "" || out.ClientKey == "")):
		return nil, errors.New("the kubeconfig the service answered has no client credentials for its current context")
	}

	return out, nil
}

// decode is base64 data as text; data that is not base64 is taken as it is.
func decode(data string) string {
	decoded, err := base64.StdEncoding.DecodeString(data)
	if err != nil {
		return data
	}

	return string(decoded)
}
