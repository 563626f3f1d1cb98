import HTTPServer

/// Offline study: the shell and its manifest, an exam's bundle and change feed (the same for
/// every student, from a replica), and the device API (who is signed in, the schedule, the
/// progress a device uploads).
struct OfflineRoutes {
    let offline: OfflinePages
    let offlineStudy: @Sendable (PortalRequest) throws -> Response
    let device: DeviceAPI
    let progress: ProgressUpload

    var routes: [PortalRoute] {
        [
            PortalRoute("offlineManifest", "GET /offline/manifest.json", .catalogue) { request, _ in try offline.manifest(request) },
            PortalRoute("offlineStudy", "GET /offline/study", .sameForEveryone) { request, _ in try offlineStudy(request) },
            PortalRoute("deviceMe", "GET /api/me", .visitors) { request, _ in try device.me(request) },
            PortalRoute("bundle", "GET /offline/exams/:region/:file", .deviceDownloads) { request, p in
                try offline.bundle(request, request.member(), region: p["region"], file: p["file"])
            },
            PortalRoute("changes", "GET /api/exams/:region/:exam/changes", .deviceDownloads) { request, p in
                try offline.changes(request, request.member(), exam: p.exam)
            },
            PortalRoute("schedule", "GET /api/exams/:region/:exam/schedule", .device) { request, p in
                try device.schedule(request, request.member(), exam: p.exam)
            },
            PortalRoute("uploadProgress", "POST /api/progress", .device, bodyLimit: ProgressUpload.bodyLimit) { request, _ in
                try progress.upload(request, request.member())
            },
        ]
    }
}
