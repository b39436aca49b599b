// compat_tls.go (compatibility layer) lets the server speak HTTPS, as every
// real API server does: with Options.TLS it makes a self-signed certificate
// for 127.0.0.1, ::1 and localhost at Start, and serves HTTP/2 (negotiated
// with ALPN) and HTTP/1.1 on the same port. HTTP/2 is what the network faults
// need: a graceful shutdown sends GOAWAY, and client-go notices a black hole
// with HTTP/2 PINGs. Plain HTTP (the default) stays the simple way to curl it.
//
// client-go counterpart: none (the real server's serving certificates come
// from k8s.io/apiserver's SecureServingOptions). Tutorial: none.
// docs: the reliability chapter.

package fakeapi

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"time"
)

// selfSigned makes a certificate that is its own certificate authority,
// valid for a year on the loopback addresses, and returns it with its PEM.
func selfSigned() (tls.Certificate, []byte, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return tls.Certificate{}, nil, err
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 62))
	if err != nil {
		return tls.Certificate{}, nil, err
	}
	now := time.Now()
	tmpl := &x509.Certificate{
		SerialNumber:          serial,
		Subject:               pkix.Name{CommonName: "fakeapi"},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.Add(365 * 24 * time.Hour),
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		IsCA:                  true,
		IPAddresses:           []net.IP{net.IPv4(127, 0, 0, 1), net.IPv6loopback},
		DNSNames:              []string{"localhost"},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return tls.Certificate{}, nil, err
	}
	certPEM := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}, certPEM, nil
}

// CACertPEM returns the server's certificate in PEM, for a client to trust
// (RESTConfig.TLSClientConfig.CAData, kubectl's --certificate-authority,
// curl's --cacert); nil when the server speaks plain HTTP.
func (s *Server) CACertPEM() []byte { return s.certPEM }
