"""Creates berth's test identities in a fresh Keystone (called by test/keystone/start.sh).

Usage: python3 setup.py <keystone-v3-url> <berth-url>
Authenticates as the bootstrap admin (admin / admin-secret) and creates the roles, projects,
users that start.sh documents (the service users and the catalog entry are made by start.sh with
the `openstack` commands docs/openstack.md shows). Idempotent.
"""
import sys

from keystoneauth1 import session, token_endpoint
from keystoneauth1.identity import v3
from keystoneclient.v3 import client

auth_url, berth_url = sys.argv[1], sys.argv[2]
password = v3.Password(
    auth_url=auth_url, username='admin', password='admin-secret', project_name='admin',
    user_domain_name='Default', project_domain_name='Default')
# One password authentication, then that token for every call: keystoneauth would otherwise
# authenticate again before each call when tokens are short-lived (KEYSTONE_TOKEN_EXPIRATION).
token = password.get_token(session.Session())
ks = client.Client(session=session.Session(auth=token_endpoint.Token(auth_url, token)))


def role(name):
    found = ks.roles.list(name=name)
    return found[0] if found else ks.roles.create(name)


def project(name):
    found = ks.projects.list(name=name)
    return found[0] if found else ks.projects.create(name, 'default')


def user(name, proj, role_name):
    found = ks.users.list(name=name)
    u = found[0] if found else ks.users.create(
        name, domain='default', password=f'{name}-secret', default_project=proj)
    ks.roles.grant(role(role_name), user=u, project=proj)
    return u


service_project = project('service')
role('service')
alpha, beta = project('alpha'), project('beta')
user('alpha-member', alpha, 'member')
user('beta-reader', beta, 'reader')
user('alpha-observer', alpha, 'observer')

print('projects', {p.name: p.id for p in (service_project, alpha, beta)})
