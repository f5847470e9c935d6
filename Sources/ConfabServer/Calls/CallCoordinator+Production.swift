import ConfabProtocol
import Foundation

/// Recording (Janus's videoroom recorder, converted to one playable file per participant after
/// stop), backstage (goLive/stopLive) and HLS broadcasting (Janus `rtp_forward` into a
/// GStreamer child that writes hlssink2 segments).
///
/// The recording requests answer at once; the Janus work runs in the call's media order and
/// reports back with events: `call.updated` with `recordingState: requested`, then
/// `call.recording_started` once Janus records; `call.updated` when converted files are ready.
/// `startBroadcasting` answers once Janus forwards (with `hlsPlaylistUrl`), or with the error.
extension CallCoordinator {
    var recordingsFolder: URL { settings.dataFolder.appendingPathComponent("recordings") }
    var liveFolder: URL { settings.dataFolder.appendingPathComponent("live") }

    // MARK: Recording

    func startRecording(_ request: StartRecordingRequest, by user: RequestSender) throws -> CallResponse {
        var call = try openCall(request.cid, capability: .startRecording, by: user)
        let cid = call.cid
        guard productions[cid].recording == .off else {
            throw ProtocolError(.conflict, "call \(cid) is already being recorded")
        }
        guard let media else {
            // No media server: the flag is all there is (clients still show it).
            call.recording = true
            productions[cid].recording = .on(folder: nil)
            try saveAndTell(call, .recordingStarted)
            return CallResponse(call: state(of: call, for: user.userId))
        }
        let stamp = Self.fileStamp(Date())
        let folder = recordingsFolder.appendingPathComponent(Self.folderName(of: cid)).appendingPathComponent("raw-\(stamp)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        productions[cid].recording = .requested(folder: folder)
        productions[cid].publisherNames = [:]
        try saveAndTell(call, .callUpdated)
        _ = inMediaOrder(for: cid) { [weak self] in
            do {
                try await media.setRecording(true, folder: folder.path, for: cid)
                let publishers = try await media.publishers(in: cid)
                await self?.recordingConfirmed(cid, folder: folder, publishers: publishers)
            } catch {
                await self?.recordingFailed(cid, folder: folder, "Janus could not start recording: \(error)")
            }
        }
        return CallResponse(call: state(of: call, for: user.userId))
    }

    func stopRecording(_ request: StopRecordingRequest, by user: RequestSender) throws -> CallResponse {
        var call = try openCall(request.cid, capability: .stopRecording, by: user)
        guard productions[call.cid].recording != .off || call.recording else {
            throw ProtocolError(.conflict, "call \(call.cid) is not being recorded")
        }
        call.recording = false
        endRecording(of: call.cid)
        try saveAndTell(call, .recordingStopped)
        return CallResponse(call: state(of: call, for: user.userId))
    }

    /// Stops Janus recording and converts what it wrote, in the background; the call hears
    /// `call.updated` with the files (or the errors) when done.
    func endRecording(of cid: CallID) {
        let folder = productions.stopRecording(of: cid)
        guard let media, let folder else { return }
        let known = productions[cid].publisherNames
        let outputFolder = recordingsFolder.appendingPathComponent(Self.folderName(of: cid))
        let prefix = String(folder.lastPathComponent.dropFirst("raw-".count))
        let children = children
        _ = inMediaOrder(for: cid) { [weak self] in
            var names = known
            for publisher in (try? await media.publishers(in: cid)) ?? [] { names[publisher.id] = publisher.display }
            do {
                try await media.setRecording(false, folder: nil, for: cid)
            } catch {
                // A destroyed room (the call ended) has closed its recordings already.
            }
            let finalNames = names
            Task.detached {
                // Janus closes the files as recording stops; conversion is slow, so off the media order.
                let converter = RecordingConverter(
                    sessionFolder: folder, outputFolder: outputFolder, prefix: prefix, children: children)
                let result = await converter.convert(participantNames: finalNames)
                await self?.recordingsConverted(cid, result.outputs, names: finalNames, failures: result.failures)
            }
        }
    }

    private func recordingConfirmed(_ cid: CallID, folder: URL, publishers: [JanusRooms.Publisher]) {
        guard productions[cid].recording == .requested(folder: folder), var call = try? loadCall(cid) else { return }
        for publisher in publishers { productions[cid].publisherNames[publisher.id] = publisher.display }
        productions[cid].recording = .on(folder: folder)
        call.recording = true
        try? saveAndTell(call, .recordingStarted)
        flush()
    }

    private func recordingFailed(_ cid: CallID, folder: URL, _ reason: String) {
        logger.error("recording failed", metadata: ["cid": "\(cid)", "error": "\(reason)"])
        guard productions[cid].recordingFolder == folder, let call = try? loadCall(cid) else { return }
        productions[cid].recording = .off
        keep([], errors: [reason], of: cid)
        try? saveAndTell(call, .callUpdated)
        flush()
    }

    private func recordingsConverted(
        _ cid: CallID, _ outputs: [RecordingConverter.Output], names: [UInt64: String], failures: [String]
    ) {
        let recordings = outputs.map { output in
            StoredRecording(
                fileName: output.fileName, participant: names[output.publisher] ?? "publisher \(output.publisher)",
                start: output.start, duration: output.duration, size: output.size)
        }
        for failure in failures {
            logger.error("recording conversion failed", metadata: ["cid": "\(cid)", "error": "\(failure)"])
        }
        keep(recordings, errors: failures, of: cid)
        guard let call = try? loadCall(cid) else { return }
        try? saveAndTell(call, .callUpdated)
        flush()
    }

    /// Adds finished recordings and errors to the call's lists, in the store (so they outlive a
    /// restart) and in memory. A store failure is logged and the lists still shown until restart.
    private func keep(_ recordings: [StoredRecording], errors: [String], of cid: CallID) {
        do {
            try store.add(recordings, errors: errors, to: cid)
        } catch {
            logger.error("recordings could not be saved", metadata: ["cid": "\(cid)", "error": "\(error)"])
        }
        productions[cid].recordings += recordings.map { callRecording($0, of: cid) }
        productions[cid].recordingErrors += errors
    }

    /// A call read from the store after a restart, with its finished recordings and errors back in
    /// memory. A broadcast does not survive a restart (its pipeline and Janus forwarders went with
    /// the old process), so a stored `broadcasting` flag is cleared.
    func restoreProduction(of stored: StoredCall) throws -> StoredCall {
        let cid = stored.cid
        var call = stored
        let recordings = try store.recordings(of: cid)
        let errors = try store.recordingErrors(of: cid)
        if !recordings.isEmpty || !errors.isEmpty {
            productions[cid].recordings = recordings.map { callRecording($0, of: cid) }
            productions[cid].recordingErrors = errors
        }
        if call.broadcasting, productions[cid].broadcast == nil {
            call.broadcasting = false
            try store.save(call)
        }
        return call
    }

    /// The recording as clients see it; the URL is built now because the server's address may
    /// have changed since the file was made.
    private func callRecording(_ recording: StoredRecording, of cid: CallID) -> CallRecording {
        CallRecording(
            participant: recording.participant, start: recording.start, duration: recording.duration, size: recording.size,
            downloadURL: "\(publicBaseURL)/recordings/\(cid.type.rawValue)/\(cid.id)/\(recording.fileName)")
    }

    /// The converted file a download asks for, when `userId` may read the call; nil otherwise.
    func recordingFile(_ cid: CallID, named fileName: String, for userId: String) -> URL? {
        guard Self.isPlainFileName(fileName), let call = try? existingCall(cid), mayRead(call, userId),
              productions[cid].recordings.contains(where: { $0.downloadURL.hasSuffix("/" + fileName) })
        else { return nil }
        return recordingsFolder.appendingPathComponent(Self.folderName(of: cid)).appendingPathComponent(fileName)
    }

    // MARK: Backstage

    /// goLive ends backstage (everyone may join); stopLive starts it again (only hosts may join).
    func setLive(_ cid: CallID, _ live: Bool, by user: RequestSender) throws -> CallResponse {
        var call = try openCall(cid, capability: live ? .goLive : .stopLive, by: user)
        call.backstage = !live
        try saveAndTell(call, .callUpdated)
        return CallResponse(call: state(of: call, for: user.userId))
    }

    // MARK: Broadcasting

    /// Answers once Janus forwards the media to the pipeline, so a broadcast that cannot start
    /// (nobody publishing, Janus made no forwarders) is an error to the requester and the call
    /// never says `broadcasting` with a playlist that would stay empty.
    func startBroadcasting(_ request: StartBroadcastingRequest, by user: RequestSender) async throws -> CallResponse {
        let call = try openCall(request.cid, capability: .startBroadcasting, by: user)
        let cid = call.cid
        guard !call.broadcasting, productions[cid].broadcast == nil else {
            throw ProtocolError(.conflict, "call \(cid) is already being broadcast")
        }
        guard let media else {
            throw ProtocolError(.invalidRequest, "this server has no media server (Janus), so it cannot broadcast")
        }
        let pipeline: HLSBroadcast
        do {
            pipeline = try HLSBroadcast(liveFolder: liveFolder, host: settings.forwardHost, children: children)
        } catch {
            throw ProtocolError(.internalError, "the broadcast pipeline could not start: \(error)")
        }
        // The host's media if a host is in the call, else whoever joined first.
        let participants = sessions[cid]?.wireParticipants ?? []
        let preferred = (participants.first { $0.role == .host } ?? participants.first)?.userId
        // Held while Janus sets up the forward (other requests run meanwhile): a second start
        // is refused and a stop ends this one.
        productions[cid].broadcast = .starting(pipeline)
        let host = settings.forwardHost
        let forwarding: ForwardedBroadcast
        do {
            forwarding = try await inMediaOrder(for: cid) {
                let publishers = try await media.publishers(in: cid)
                guard let publisher = publishers.first(where: { $0.display == preferred }) ?? publishers.first else {
                    throw BroadcastError.nobodyPublishing
                }
                let streams = try await media.forward(
                    publisher.id, in: cid, to: host, audioPort: pipeline.audioPort, videoPort: pipeline.videoPort)
                // Janus answers success with no forwarders when no stream matched (e.g. other mids).
                guard !streams.isEmpty else { throw BroadcastError.noForwarders }
                return ForwardedBroadcast(pipeline: pipeline, publisher: publisher.id, streams: streams)
            }.value
        } catch {
            logger.error("broadcast failed", metadata: ["cid": "\(cid)", "error": "\(error)"])
            if productions[cid].broadcast?.pipeline === pipeline { productions[cid].broadcast = nil }
            await pipeline.stop()
            throw ProtocolError(.internalError, "the broadcast could not start: \(error)")
        }
        guard productions[cid].broadcast?.pipeline === pipeline, var current = try? loadCall(cid), current.endedAt == nil else {
            // Stopped (or the call ended) meanwhile: undo the forward.
            _ = inMediaOrder(for: cid) {
                await media.stopForwarding(forwarding.publisher, streams: forwarding.streams, in: cid)
                await pipeline.stop()
            }
            throw ProtocolError(.conflict, "the broadcast of \(cid) was stopped while it started")
        }
        productions[cid].broadcast = .forwarding(forwarding)
        current.broadcasting = true
        do {
            try saveAndTell(current, .callUpdated)
        } catch {
            endBroadcast(of: cid)
            throw error
        }
        logger.notice("broadcasting", metadata: [
            "cid": "\(cid)", "publisher": "\(forwarding.publisher)", "forwarders": "\(forwarding.streams.count)",
            "name": "\(pipeline.name)"])
        return CallResponse(call: state(of: current, for: user.userId))
    }

    func stopBroadcasting(_ request: StopBroadcastingRequest, by user: RequestSender) throws -> CallResponse {
        var call = try openCall(request.cid, capability: .stopBroadcasting, by: user)
        guard call.broadcasting || productions[call.cid].broadcast != nil else {
            throw ProtocolError(.conflict, "call \(call.cid) is not being broadcast")
        }
        call.broadcasting = false
        endBroadcast(of: call.cid)
        try saveAndTell(call, .callUpdated)
        return CallResponse(call: state(of: call, for: user.userId))
    }

    /// Stops the forwarders and the pipeline and removes the playlist.
    func endBroadcast(of cid: CallID) {
        guard let broadcast = productions.stopBroadcast(of: cid) else { return }
        let media = media
        _ = inMediaOrder(for: cid) {
            // A broadcast still starting forwards nothing yet; `startBroadcasting` undoes its
            // forward itself when it finds the broadcast gone.
            if case .forwarding(let forwarded) = broadcast {
                await media?.stopForwarding(forwarded.publisher, streams: forwarded.streams, in: cid)
            }
            await broadcast.pipeline.stop()
        }
    }

    /// Stops every broadcast pipeline and every other child (recording converters) before the
    /// server exits: none may outlive it, and their temporary files go with them. Janus's
    /// forwarders need no undoing, Janus stops next.
    func stopProductions() async {
        for pipeline in productions.stopEveryBroadcast() { await pipeline.stop() }
        await children.stopAll()
    }

    /// The playlist URL `userId` is given: their own viewer path (see `HLSBroadcast.viewerPath`),
    /// only while they may read the call and Janus forwards to the broadcast.
    func hlsPlaylistURL(of cid: CallID, for userId: String) -> String? {
        guard case .forwarding(let forwarded) = productions.existing(cid)?.broadcast,
              let call = calls[cid], mayRead(call, userId)
        else { return nil }
        return "\(publicBaseURL)/live/\(forwarded.pipeline.viewerPath(for: userId))/\(HLSBroadcast.playlistName)"
    }

    /// A broadcast's file for the viewer `userId` with `key`, while that user may read the call;
    /// nil for anything else (an unknown broadcast, a wrong key, a blocked user).
    func liveFile(broadcast name: String, viewer userId: String, key: String, file: String) -> URL? {
        guard Self.isPlainFileName(name), Self.isPlainFileName(file),
              let (cid, pipeline) = productions.broadcast(named: name), pipeline.isViewerKey(key, of: userId),
              let call = calls[cid], mayRead(call, userId)
        else { return nil }
        return liveFolder.appendingPathComponent(name).appendingPathComponent(file)
    }

    // MARK: Helpers

    func setPublicBaseURL(_ url: String) { publicBaseURL = url }

    /// The call, after checking `capability` and that it has not ended.
    private func openCall(_ cid: CallID, capability: OwnCapability, by user: RequestSender) throws -> StoredCall {
        let call = try loadCall(cid)
        try require(capability, of: user.userId, in: call)
        try call.requireNotEnded()
        return call
    }

    private enum Change { case callUpdated, recordingStarted, recordingStopped }

    private func saveAndTell(_ call: StoredCall, _ change: Change) throws {
        var call = call
        call.updatedAt = Date()
        try save(call)
        tell(.audience, about: call.cid) {
            switch change {
            case .callUpdated: .callUpdated(CallChangedEvent(call: $0))
            case .recordingStarted: .recordingStarted(CallChangedEvent(call: $0))
            case .recordingStopped: .recordingStopped(CallChangedEvent(call: $0))
            }
        }
    }

    static func folderName(of cid: CallID) -> String { "\(cid.type.rawValue)_\(cid.id)" }

    static func isPlainFileName(_ name: String) -> Bool {
        !name.isEmpty && !name.hasPrefix(".") && name.count <= 200
            && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) }
    }

    private static func fileStamp(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss"
        return formatter.string(from: date) + "-" + String(UInt16.random(in: 0...UInt16.max), radix: 16)
    }
}
