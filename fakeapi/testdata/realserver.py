# realserver.py: the one HTTP helper the capture scripts beside it share.
# It sends a request to the real kube-apiserver named by the environment that
# kube-apiserver/start.sh writes (KUBE_APISERVER_URL, KUBE_TOKEN, KUBE_CACERT)
# and returns the status code, the Warning headers and the decoded JSON body.
import json, os, ssl, urllib.error, urllib.request

url = os.environ['KUBE_APISERVER_URL']
tok = os.environ['KUBE_TOKEN']
ctx = ssl.create_default_context(cafile=os.environ['KUBE_CACERT'])


def req(method, path, body=None, ct='application/json'):
    r = urllib.request.Request(url + path, data=body.encode() if body else None, method=method)
    r.add_header('Authorization', 'Bearer ' + tok)
    if body:
        r.add_header('Content-Type', ct)
    try:
        resp = urllib.request.urlopen(r, context=ctx)
        code = resp.status
    except urllib.error.HTTPError as e:
        resp = e
        code = e.code
    data = json.loads(resp.read() or b'{}')
    return code, resp.headers.get_all('Warning') or [], data
