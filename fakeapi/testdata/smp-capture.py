import json, os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from realserver import req as request


def req(method, path, body=None, ct='application/json'):
    code, _, data = request(method, path, body, ct)
    return code, data
D='/apis/apps/v1/namespaces/default/deployments'
S='/api/v1/namespaces/default/services'
dep={"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"smp","labels":{"a":"1"},"annotations":{"n":"1"},"finalizers":["a.io/x","b.io/y"]},
 "spec":{"selector":{"matchLabels":{"app":"smp"}},"template":{"metadata":{"labels":{"app":"smp"}},"spec":{
  "containers":[{"name":"a","image":"a:1","ports":[{"containerPort":80},{"containerPort":81}],"env":[{"name":"X","value":"1"},{"name":"Y","value":"2"}]},{"name":"b","image":"b:1"}],
  "tolerations":[{"key":"k1","operator":"Exists"}]}}}}
svc={"apiVersion":"v1","kind":"Service","metadata":{"name":"smp"},"spec":{"ports":[{"name":"http","port":80},{"name":"https","port":443}],"selector":{"app":"smp"}}}
steps=[
 ('deployment','merge a container by name','{"spec":{"template":{"spec":{"containers":[{"name":"b","image":"b:2"}]}}}}'),
 ('deployment','a new container is appended','{"spec":{"template":{"spec":{"containers":[{"name":"c","image":"c:1"}]}}}}'),
 ('deployment','$setElementOrder puts a new container first','{"spec":{"template":{"spec":{"$setElementOrder/containers":[{"name":"new"},{"name":"c"},{"name":"b"},{"name":"a"}],"containers":[{"name":"new","image":"n:1"}]}}}}'),
 ('deployment','$patch delete removes a container','{"spec":{"template":{"spec":{"containers":[{"name":"new","$patch":"delete"}]}}}}'),
 ('deployment','ports merge on containerPort, ordered by $setElementOrder','{"spec":{"template":{"spec":{"containers":[{"name":"a","$setElementOrder/ports":[{"containerPort":81},{"containerPort":9090},{"containerPort":80}],"ports":[{"containerPort":9090}]}]}}}}'),
 ('deployment','env merges on name; null deletes a field','{"spec":{"template":{"spec":{"containers":[{"name":"a","env":[{"name":"Z","value":"3"},{"name":"X","value":null,"valueFrom":{"fieldRef":{"fieldPath":"metadata.name"}}}]}]}}}}'),
 ('deployment','finalizers merge as a set','{"metadata":{"finalizers":["c.io/z","a.io/x"]}}'),
 ('deployment','$deleteFromPrimitiveList removes finalizers','{"metadata":{"$deleteFromPrimitiveList/finalizers":["b.io/y"]}}'),
 ('deployment','$setElementOrder orders finalizers','{"metadata":{"$setElementOrder/finalizers":["c.io/z","d.io/w","a.io/x"],"finalizers":["d.io/w"]}}'),
 ('deployment','$retainKeys keeps only the strategy type','{"spec":{"strategy":{"$retainKeys":["type"],"type":"Recreate"}}}'),
 ('deployment','$patch replace on a map','{"metadata":{"labels":{"$patch":"replace","b":"2"}}}'),
 ('deployment','$patch delete on a map','{"metadata":{"annotations":{"$patch":"delete"}}}'),
 ('deployment','tolerations have no merge key: replaced','{"spec":{"template":{"spec":{"tolerations":[{"key":"k2","operator":"Exists"}]}}}}'),
 ('deployment','$patch replace on a list','{"spec":{"template":{"spec":{"containers":[{"name":"z","image":"z:1"},{"$patch":"replace"}]}}}}'),
 ('service','service ports merge on port','{"spec":{"$setElementOrder/ports":[{"port":443},{"port":8080},{"port":80}],"ports":[{"name":"alt","port":8080}]}}'),
 ('service','a service port deleted','{"spec":{"ports":[{"port":443,"$patch":"delete"}]}}'),
]
out={'deployment':dep,'service':svc,'steps':[]}
print(req('POST', D, json.dumps(dep))[0], req('POST', S, json.dumps(svc))[0], file=__import__('sys').stderr)
for kind, name, patch in steps:
    code, obj = req('PATCH', (D if kind=='deployment' else S)+'/smp', patch, 'application/strategic-merge-patch+json')
    out['steps'].append(dict(kind=kind, name=name, patch=json.loads(patch), code=code, result=obj if obj.get('kind')!='Status' else None, message=obj.get('message') if obj.get('kind')=='Status' else None))
req('PATCH', D+'/smp', '{"metadata":{"finalizers":null}}', 'application/merge-patch+json')
req('DELETE', D+'/smp'); req('DELETE', S+'/smp')
print(json.dumps(out, indent=1))
