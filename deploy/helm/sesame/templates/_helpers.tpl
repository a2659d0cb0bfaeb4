{{- define "sesame.fullname" -}}
{{- printf "%s" .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "sesame.labels" -}}
app.kubernetes.io/name: sesame
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
{{- end -}}

{{- define "sesame.selectorLabels" -}}
app.kubernetes.io/name: sesame
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{- define "sesame.host" -}}
{{- trimPrefix "https://" .Values.issuer | trimSuffix "/" -}}
{{- end -}}
