package cluster

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/pem"
	"fmt"
	"math/big"
	"time"
)

// Credentials are a cluster's administrator credentials, as Cluster API makes them
// for the `<release>-kubeconfig` secret the service reads: an authority the cluster's
// API serves a certificate of, and a client certificate it signed, of the cluster's
// administrators (`system:masters`). They are made once, with the cluster, so that its
// kubeconfig is the same whenever it is read.
type Credentials struct {
	Server            string `json:"server"`
	CACertificate     string `json:"caCertificate"`
	ClientCertificate string `json:"clientCertificate"`
	ClientKey         string `json:"clientKey"`
}

// NewCredentials makes a cluster's credentials, valid from now for a year; its API is
// at a name of the cluster's ID that resolves nowhere, as the sandbox runs no cluster.
func NewCredentials(clusterID string, now time.Time) (*Credentials, error) {
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}

	ca := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "kubernetes"},
		NotBefore: now.Add(-time.Minute), NotAfter: now.AddDate(1, 0, 0),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
	}

	caDER, err := x509.CreateCertificate(rand.Reader, ca, ca, &caKey.PublicKey, caKey)
	if err != nil {
		return nil, err
	}

	clientKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}

	client := &x509.Certificate{
		SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "kubernetes-admin", Organization: []string{"system:masters"}},
		NotBefore: now.Add(-time.Minute), NotAfter: now.AddDate(1, 0, 0),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
	}

	clientDER, err := x509.CreateCertificate(rand.Reader, client, ca, &clientKey.PublicKey, caKey)
	if err != nil {
		return nil, err
	}

	keyDER, err := x509.MarshalECPrivateKey(clientKey)
	if err != nil {
		return nil, err
	}

	return &Credentials{
		Server:            "https://" + clusterID + ".clusters.sandbox.invalid:6443",
		CACertificate:     string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: caDER})),
		ClientCertificate: string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: clientDER})),
		ClientKey:         string(pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER})),
	}, nil
}

// Kubeconfig is the credentials as a kubeconfig whose one context is the cluster's
// administrator's, as Cluster API writes it.
func (c *Credentials) Kubeconfig(clusterName string) []byte {
	b64 := func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

	return fmt.Appendf(nil, `apiVersion: v1
kind: Config
clusters:
- name: %[1]s
  cluster:
    server: %[2]s
    certificate-authority-data: %[3]s
contexts:
- name: %[1]s-admin@%[1]s
  context:
    cluster: %[1]s
    user: %[1]s-admin
current-context: %[1]s-admin@%[1]s
preferences: {}
users:
- name: %[1]s-admin
  user:
    client-certificate-data: %[4]s
    client-key-data: %[5]s
`, clusterName, c.Server, b64(c.CACertificate), b64(c.ClientCertificate), b64(c.ClientKey))
}
