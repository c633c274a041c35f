"""The site's URLs: the admin here; the api and web apps add theirs.

An exception no view handled is answered by `tavolo_site.outages.server_error`:
a 503 while the database or Redis is down, else a 500.
"""

from django.contrib import admin
from django.urls import include, path

from tavolo_site.admin_login import admin_login

urlpatterns = [
    path("admin/login/", admin_login, name="admin-login"),
    path("admin/", admin.site.urls),
    path("api/", include("api.urls")),
    path("", include("web.urls")),
]

handler500 = "tavolo_site.outages.server_error"
