"""The site's URLs: the admin here; the api and web apps add theirs."""

from django.contrib import admin
from django.urls import path

urlpatterns = [
    path("admin/", admin.site.urls),
]
