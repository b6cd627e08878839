/*
 * trust_probe.c — TEST ONLY, macOS: verify a server certificate chain the
 * way Go's crypto/x509 does on macOS, through Security.framework's
 * SecTrustEvaluateWithError (which asks trustd over Mach).  darwin.sh
 * builds it with the Xcode command line tools and runs it in the sandbox.
 *
 *   trust_probe HOST LEAF.der [INTERMEDIATE.der ...]
 *
 * Exit 0 and "trusted", 1 and "not trusted: ..." (the OSStatus), or 2 when
 * the arguments cannot be read.
 */
#include <CoreFoundation/CoreFoundation.h>
#include <Security/Security.h>
#include <stdio.h>

static CFDataRef read_der(const char *path)
{
    static unsigned char buf[1 << 16];
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t n = fread(buf, 1, sizeof buf, f);
    int whole = feof(f) && !ferror(f);
    fclose(f);
    return whole && n > 0 ? CFDataCreate(NULL, buf, (CFIndex)n) : NULL;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: trust_probe HOST LEAF.der [INTERMEDIATE.der ...]\n");
        return 2;
    }
    CFMutableArrayRef chain = CFArrayCreateMutable(NULL, 0, &kCFTypeArrayCallBacks);
    for (int i = 2; i < argc; i++) {
        CFDataRef der = read_der(argv[i]);
        SecCertificateRef cert = der ? SecCertificateCreateWithData(NULL, der) : NULL;
        if (!cert) {
            fprintf(stderr, "trust_probe: %s: not a readable DER certificate\n", argv[i]);
            return 2;
        }
        CFArrayAppendValue(chain, cert);
        CFRelease(cert);
        CFRelease(der);
    }
    CFStringRef host = CFStringCreateWithCString(NULL, argv[1], kCFStringEncodingUTF8);
    SecPolicyRef policy = SecPolicyCreateSSL(true, host);
    SecTrustRef trust = NULL;
    OSStatus st = SecTrustCreateWithCertificates(chain, policy, &trust);
    if (st != errSecSuccess) {
        fprintf(stderr, "trust_probe: SecTrustCreateWithCertificates: OSStatus %d\n", (int)st);
        return 2;
    }
    CFErrorRef error = NULL;
    if (SecTrustEvaluateWithError(trust, &error)) {
        puts("trusted");
        return 0;
    }
    printf("not trusted: OSStatus %ld\n", error ? (long)CFErrorGetCode(error) : 0L);
    return 1;
}
