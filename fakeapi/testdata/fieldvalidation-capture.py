import json, os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from realserver import req
P='/api/v1/namespaces/default/pods'
pod=lambda name, extra='': '{"apiVersion":"v1","kind":"Pod","metadata":{"name":"%s"%s},"spec":{"containers":[{"name":"c","image":"nginx"}]}}' % (name, extra)
cases=[]
def case(name, method, path, body, ct='application/json'):
    cases.append(dict(name=name, method=method, path=path, contentType=ct, body=body))
unk='{"apiVersion":"v1","kind":"Pod","metadata":{"name":"%s","foo":1},"spec":{"containers":[{"name":"c","image":"nginx","imagePolicy":"x"}],"bar":{"baz":1}},"extra":true}'
for q in ['', 'Warn', 'Ignore', 'Strict']:
    n='unknown-'+(q.lower() or 'default')
    case('create with unknown fields, '+(q or 'default'), 'POST', P+('?fieldValidation='+q if q else ''), unk % n)
case('create the pod to update', 'POST', P, pod('fv'))
dup='{"apiVersion":"v1","kind":"Pod","metadata":{"name":"fv","labels":{"a":"1","a":"2"}},"spec":{"containers":[{"name":"c","image":"nginx","image":"busybox"}],"containers":[{"name":"c","image":"nginx"}]}}'
for q in ['Strict', 'Ignore', '']:
    case('update with duplicate fields, '+(q or 'default'), 'PUT', P+'/fv'+('?fieldValidation='+q if q else ''), dup)
for ct in ['application/merge-patch+json','application/strategic-merge-patch+json']:
    for q in ['Strict','']:
        case('patch (%s) with unknown fields, %s' % (ct.split('/')[1], q or 'default'), 'PATCH', P+'/fv'+('?fieldValidation='+q if q else ''), '{"metadata":{"labels":{"x":"1"},"foo":1},"spec":{"bar":2}}', ct)
case('strategic patch with a duplicate field, default', 'PATCH', P+'/fv', '{"metadata":{"labels":{"y":"1","y":"2"}}}', 'application/strategic-merge-patch+json')
for i,(what,spec) in enumerate([
  ('containerPort is a string','{"containers":[{"name":"c","image":"nginx","ports":[{"containerPort":"80"}]}]}'),
  ('containers is a string','"containers":"x"'),
  ('terminationGracePeriodSeconds is 1.5','{"containers":[{"name":"c","image":"nginx"}],"terminationGracePeriodSeconds":1.5}'),
  ('stdin is a string','{"containers":[{"name":"c","image":"nginx","stdin":"yes"}]}'),
  ('restartPolicy is a number','{"containers":[{"name":"c","image":"nginx"}],"restartPolicy":5}'),
  ('a quantity is not one','{"containers":[{"name":"c","image":"nginx","resources":{"limits":{"cpu":"abc"}}}]}'),
  ('an unknown field before a type error','{"containers":[{"name":"c","image":"nginx","foo":1,"ports":[{"containerPort":"80"}]}]}'),
  ('hostPort overflows int32','{"containers":[{"name":"c","image":"nginx","ports":[{"containerPort":80,"hostPort":3000000000}]}]}'),
]):
    if spec.startswith('"'): body='{"metadata":{"name":"t%d"},"spec":{%s}}' % (i, spec)
    else: body='{"metadata":{"name":"t%d"},"spec":%s}' % (i, spec)
    case('type error: '+what, 'POST', P+'?dryRun=All', body)
case('type error: a label value is a number', 'POST', P+'?dryRun=All', '{"metadata":{"name":"t9","labels":{"a":1}}}')
case('type error: name is a number', 'POST', P+'?dryRun=All', '{"metadata":{"name":5}}')
case('deployment with an unknown field, Strict', 'POST', '/apis/apps/v1/namespaces/default/deployments?fieldValidation=Strict',
  '{"metadata":{"name":"d"},"spec":{"selector":{"matchLabels":{"a":"b"}},"template":{"metadata":{"labels":{"a":"b"}},"spec":{"containers":[{"name":"c","image":"nginx"}]}},"replica":3}}')
case('deployment with an unknown field, default', 'POST', '/apis/apps/v1/namespaces/default/deployments',
  '{"metadata":{"name":"d2"},"spec":{"selector":{"matchLabels":{"a":"b"}},"template":{"metadata":{"labels":{"a":"b"}},"spec":{"containers":[{"name":"c","image":"nginx"}]}},"replica":3}}')
for c in cases:
    code, warn, data = req(c['method'], c['path'], c['body'], c['contentType'])
    c['code']=code; c['warnings']=warn
    if data.get('kind')=='Status':
        c['reason']=data.get('reason',''); c['message']=data.get('message','')
    else:
        c['stored']=data
for n in ['unknown-default','unknown-warn','unknown-ignore','fv']:
    req('DELETE', P+'/'+n+'?gracePeriodSeconds=0')
for n in ['d2']:
    req('DELETE', '/apis/apps/v1/namespaces/default/deployments/'+n)
print(json.dumps(cases, indent=1))
