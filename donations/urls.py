from django.urls import path

from donations import views

app_name = "donations"

urlpatterns = [
    path("", views.donate, name="donate"),
    path("thanks/", views.thanks, name="thanks"),
    path("supporters/", views.supporters, name="supporters"),
    path("stripe/webhook/", views.stripe_webhook, name="stripe_webhook"),
]
