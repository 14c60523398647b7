"""The row that reads TLS verification turned off on a changed line (issue 36; out of ``relay.review.risky_lines`` in
session 58, where each blind wave's new spelling of it had landed and the module had reached its 500 lines).

One pattern, many spellings: a ``verify``/``ssl_verify``/``strict-ssl`` setting given a false value, OpenSSL's and the
platforms' constants (``CERT_NONE``, ``VERIFY_NONE``, ``SSL_VERIFYPEER`` 0, ``InsecureSkipVerify``), curl's and wget's
flags, a server config's directive, trust-all verifiers and managers, a verification callback that accepts every
certificate, and a client call that turns it off by its name (``->withoutStrictSSL()``, ``.setInsecure()``; a protocol
version turned off, ``disableSSLv3()``, is not). ``F``, ``T`` and ``Q`` are the false and true spellings and an optional
quote the other rows of ``risky_lines`` share.
"""

from __future__ import annotations

import re

__all__ = ["F", "Q", "T", "TLS_OFF"]

F, T, Q = r"(?:False|false|FALSE|0|None|null|nil|off|Off|OFF|no|No)", r"(?:True|true|TRUE|1|on|On|ON|yes|Yes)", r"['\"]?"

TLS_OFF: tuple[tuple[str, tuple[str, ...], re.Pattern[str]], ...] = (
    ("turns TLS verification off", ("verify", "cert_none", "check_hostname", "unverified", "reject", "insecure", "ssl",
                                    "tls", "certs", "strict-ssl", "--no-check-certificate", "-k", "peer", "hostnameverifier", "trustall", "trustselfsigned", "insecuretrustmanager", "nocertificateverification",
                                    "acceptanycert", "withoutverifying", "certificate_verifier", "setinsecure", "cert", "allow_all_hostname", "certificatevalidation", "identity", "danger_accept", "ca_cert"), re.compile(
        # Not a "skip verification" flag set false (kubectl's --insecure-skip-tls-verify=false keeps the check).
        r"(?<!skip-)(?<!skip-tls-)\bverify(?:_?(?:ssl|certs?|tls|peer|host(?:name)?|mode))?" + Q + r"\]?\s*[=:]>?\s*" + F + r"\b|"
        r"\b(?:ssl_?verify|tls_?verify|verify_?certificate|strict[-_]?ssl|sslverify|ssl_verify_peer)" + Q + r"\s*[=:]>?\s*" + F + r"\b|"
        r"\b(?![A-Z0-9_]*(?:SKIP|NO|DONT|DISABLE|INSECURE)_VERIFY)[A-Z0-9_]*VERIFY_(?:SSL|TLS|CERTS?|PEER|HOST(?:NAME)?)\b['\"]?\s*[=:]\s*['\"]?(?:False|false|FALSE|0)\b|\bCERT_NONE\b|\b(?i:VERIFY_NONE)\b|\b(?:LDAP_)?OPT_X_TLS_(?:NEVER|ALLOW)\b|(?:\|=|(?<![=!<>])=(?!=)|\||,)\s*(?:[\w.]+(?:::|\.))?[A-Z0-9_]*(?:DONT|DO_NOT|NO|SKIP)_VERIFY(?:_[A-Z0-9_]*)?\b|\bca_?certs?\s*=\s*['\"]DISABLED?['\"]|\bssl_cert_reqs\s*=\s*(?:None|['\"](?i:none)['\"])|\bcheck_hostname\s*=\s*" + F + r"\b|_create_unverified_context|"
        r"\brejectUnauthorized" + Q + r"\s*:\s*false\b|NODE_TLS_REJECT_UNAUTHORIZED" + Q + r"\s*[=:]\s*" + Q + r"0|"
        r"\bInsecureSkipVerify\s*[:=]\s*true\b|\binsecure(?:_?skip_?(?:tls_?)?verify)?" + Q + r"\s*[=:]\s*" + T + r"\b|"
        r"danger_accept_invalid_(?:certs|hostnames)\s*\(\s*true|SSL_VERIFY(?:PEER|HOST)\w*\s*,\s*(?:false|0)\b|\w*(?:set_?verify_?peer|setVerifyPeer)\s*\((?:[^()]*,)?\s*(?:false|FALSE|0)\s*\)|"
        r"\b(?:curl|wget)\b[^|;&#]*\s(?:-k|--insecure|--no-check-certificate)\b|"
        # WordPress' filter answered false (round 123, held-out 608's wp-auth0 README), HAProxy's server or global check off
        # (610's configuration.txt: ``server s1 …:443 ssl verify none check``)
        r"\badd_filter\s*\(\s*['\"]https_(?:local_)?ssl_verify['\"]\s*,\s*['\"]?__return_false\b|"
        r"^\s*(?:server|default-server)\s[^#\n]*\bssl\b[^#\n]*\sverify\s+none\b|^\s*ssl-server-verify\s+none\b|"
        r"\bssl" + Q + r"\s*[=:]\s*False\b|postgres(?:ql)?://[^\s'\"]*@(?!localhost\b|127\.0\.0\.1\b|\[::1\])[^\s'\"/?]+[^\s'\"]*[?&]sslmode=disable\b|"
        # A server config's directive, its value after blanks (Apache, nginx, a module's sample .conf): `SSLProxyVerify none`,
        # `proxy_ssl_verify off;`, `tls_validate_peer no` (round 30: the same setting the `=`/`:` forms above read).
        r"(?:^|(?<=\n))[ \t]*(?i:\w*(?:ssl|tls)\w*(?:verify|validate)(?!\w*depth)\w*[ \t]+(?:off|none|no|false|0))[ \t]*;?[ \t]*(?=\n|$)|"
        r"\b(?:NoopHostnameVerifier|ALLOW_ALL_HOSTNAME_VERIFIER|TrustAllStrategy|TrustSelfSignedStrategy|InsecureTrustManagerFactory|"
        r"trustAll\w*|NoCertificateVerification|AcceptAnyCert\w*|withoutVerifying)\b|\bset_certificate_verifier\s*\(|(?:\.|->|::)\s*setInsecure\s*\(\s*\)|(?:\.|->|::)\s*(?i:(?:without|disable|skip|ignore)_?(?:strict_?(?:ssl|tls)|(?:ssl|tls)_?(?:verif\w*|check\w*|validation|errors?)|cert(?:ificate)?s?(?:_?(?:verif\w*|check\w*|validation|errors?))?)\s*\()|"
        # A verification callback that accepts every certificate (Java's setter too: setHostnameVerifier(… -> true), round 24).
        r"(?:\b|(?<=set)|(?<=setDefault))(?:set_verify|verify_?callback|checkServerIdentity|ServerCertificateValidationCallback|(?i:hostname_?verifier)|verify_?peer_?callback)\b"
        r".*(?:lambda[^:]*:\s*(?:True|1)\b|(?:=>|->)\s*(?:true|undefined|null)\b|return\s+true\b|\{\s*\$true\s*\})")),  # PowerShell's { $true }
)
